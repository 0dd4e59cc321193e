import type { Repository } from '../../ci/schemas.js';
import { buildWebUrl, repoWebUrl } from '../../ci/web-links.js';
import type { BranchBuild, RequestEntry } from '../../ops/repos.js';
import type { ChannelDefault } from '../../store/channel-defaults.js';
import { ACTIONS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, link, mention, singleLine } from '../text/escape.js';
import { formatDuration, timeAgo } from '../text/format.js';
import { truncate } from '../text/truncate.js';
import { actions, button, context, fields, header, section } from './blocks.js';
import { commitSubject } from './build-format.js';
import { listBlocks } from './lists.js';
import { repoLink, type Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

/** Repository views (`repo`, `branches`, `requests`), activation and channel-repository messages. */

/** Leaves room for the header and notes within Slack's ~12,000 characters of block text. */
const LIST_MAX_CHARS = 10_000;
const LIST_MAX_ITEMS = 100;

export function repoMessage(repo: Repository, site: Site, now: Date): SlackMessage {
  const description = repo.description?.trim()
    ? escapeMrkdwn(truncate(repo.description.trim(), 1_000))
    : '_No description._';
  const blocks: Block[] = [header(repo.slug), section(description)];
  const facts = [`*Builds*\n${activeWord(repo.active)}`];
  if (repo.last_build_id) {
    const number = repo.last_build_number ? `#${repo.last_build_number}` : 'last build';
    const url = buildWebUrl(site.webUrl, repo.slug, repo.last_build_id);
    facts.push(
      `*Last build*\n${stateEmoji(repo.last_build_state)} ${link(url, number)} ${escapeMrkdwn(stateWord(repo.last_build_state))}`,
    );
    if (typeof repo.last_build_duration === 'number') {
      facts.push(`*Took*\n${formatDuration(repo.last_build_duration)}`);
    }
    const when = repo.last_build_finished_at ?? repo.last_build_started_at;
    if (when) {
      const verb = repo.last_build_finished_at ? 'Finished' : 'Started';
      facts.push(`*${verb}*\n${timeAgo(when, now)}`);
    }
  } else {
    facts.push('*Last build*\nnone yet');
  }
  blocks.push(fields(facts));
  blocks.push(
    context(
      `${repoLink(site, repo.slug)} on ${escapeMrkdwn(site.label)} · ${link(`${repoWebUrl(site.webUrl, repo.slug)}/builds`, 'all builds')}`,
    ),
  );
  blocks.push(
    ...actions([
      repo.last_build_id
        ? button(ACTIONS.showBuild, 'Last build', { d: site.deployment, id: repo.last_build_id })
        : undefined,
      button(ACTIONS.openSettings, 'Settings', { d: site.deployment, repoId: repo.id, repo: repo.slug }),
    ]),
  );
  const last = repo.last_build_number
    ? `, last build #${repo.last_build_number} ${stateWord(repo.last_build_state)}`
    : '';
  return { text: escapeMrkdwn(`${repo.slug}: builds ${activeWord(repo.active)}${last}`), blocks };
}

function activeWord(active: boolean | undefined): string {
  if (active === undefined) return 'not reported';
  return active ? 'on' : 'off';
}

export function activationAnnouncement(
  userId: string,
  repo: Repository,
  active: boolean,
  site: Site,
): SlackMessage {
  const verb = active ? 'enabled' : 'disabled';
  return { text: `${mention(userId)} ${verb} ${repoLink(site, repo.slug)}` };
}

export function activationConfirmation(repo: Repository, active: boolean, site: Site): SlackMessage {
  return {
    text: `${active ? 'Enabled' : 'Disabled'} ${repoLink(site, repo.slug)}: builds are ${active ? 'on' : 'off'}.`,
  };
}

export function branchesMessage(
  repo: Repository,
  branches: BranchBuild[],
  site: Site,
  now: Date,
): SlackMessage {
  const title = `Branches of ${repo.slug}`;
  if (branches.length === 0) {
    return {
      text: escapeMrkdwn(title),
      blocks: [header(title), section(`No branch of ${repoLink(site, repo.slug)} has been built yet.`)],
    };
  }
  const blocks: Block[] = [
    header(title),
    ...listBlocks(branches, (b) => branchLine(b, repo, site, now), {
      maxItems: LIST_MAX_ITEMS,
      maxChars: LIST_MAX_CHARS,
      noun: 'branches',
    }),
  ];
  return { text: escapeMrkdwn(`${title}: ${branches.length}`), blocks };
}

function branchLine({ branch, build, commit }: BranchBuild, repo: Repository, site: Site, now: Date): string {
  const name = branch ? `*${escapeMrkdwn(truncate(singleLine(branch), 100))}*` : '_unknown branch_';
  const number = link(buildWebUrl(site.webUrl, repo.slug, build.id), `#${build.number}`);
  const parts = [`${stateEmoji(build.state)} ${name} ${number} ${escapeMrkdwn(stateWord(build.state))}`];
  if (typeof build.duration === 'number' && build.duration > 0) parts.push(formatDuration(build.duration));
  const when = build.finished_at ?? build.started_at;
  if (when) parts.push(timeAgo(when, now));
  const subject = commitSubject(commit?.message, 60);
  if (subject) parts.push(escapeMrkdwn(subject));
  return parts.join(' · ');
}

const RESULT_EMOJI: Record<string, string> = {
  accepted: ':white_check_mark:',
  rejected: ':no_entry:',
};

export function requestsMessage(
  repo: Repository,
  requests: RequestEntry[],
  site: Site,
  now: Date,
): SlackMessage {
  const title = `Requests of ${repo.slug}`;
  if (requests.length === 0) {
    return {
      text: escapeMrkdwn(title),
      blocks: [header(title), section(`${repoLink(site, repo.slug)} has no build requests yet.`)],
    };
  }
  const rejected = requests.filter((r) => r.request.result === 'rejected').length;
  const blocks: Block[] = [
    header(title),
    ...listBlocks(requests, (r) => requestLine(r, now), {
      maxItems: LIST_MAX_ITEMS,
      maxChars: LIST_MAX_CHARS,
      noun: 'requests',
    }),
  ];
  return {
    text: escapeMrkdwn(`${title}: ${requests.length}, ${rejected} rejected`),
    blocks,
  };
}

function requestLine({ request, commit }: RequestEntry, now: Date): string {
  const result = request.result ?? 'pending';
  const emoji = RESULT_EMOJI[result] ?? ':hourglass_flowing_sand:';
  const event = request.pull_request
    ? `pull request${request.pull_request_number ? ` #${request.pull_request_number}` : ''}`
    : singleLine(request.event_type ?? 'event').replace(/_/g, ' ');
  const branch = request.branch ?? commit?.branch;
  const parts = [`${emoji} *${escapeMrkdwn(result)}* ${escapeMrkdwn(truncate(event, 40))}`];
  if (branch) parts[0] += ` on *${escapeMrkdwn(truncate(singleLine(branch), 100))}*`;
  const sha = commit?.sha ?? request.head_commit;
  if (sha) parts.push(inlineCode(sha.slice(0, 7)));
  const subject = commitSubject(commit?.message, 60);
  if (subject) parts.push(escapeMrkdwn(subject));
  if (request.created_at) parts.push(timeAgo(request.created_at, now));
  let line = parts.join(' · ');
  if (result === 'rejected') {
    const reason = request.message?.trim() ? truncate(singleLine(request.message), 300) : 'no reason given';
    line += `\n      ↳ _${escapeMrkdwn(reason)}_`;
  }
  return line;
}

export function channelRepoAnnouncement(userId: string, repo: Repository, site: Site): SlackMessage {
  return {
    text: `${mention(userId)} set this channel's repository to ${repoLink(site, repo.slug)} on ${escapeMrkdwn(site.label)}: commands here may now leave it out.`,
  };
}

export function channelRepoConfirmation(repo: Repository, site: Site): SlackMessage {
  return {
    text: `This channel's repository is now ${repoLink(site, repo.slug)} on ${escapeMrkdwn(site.label)}: commands here may leave it out.`,
  };
}

export function channelRepoShown(
  current: ChannelDefault | undefined,
  label: string,
  now: Date,
): SlackMessage {
  if (!current) {
    return {
      text: 'This channel has no repository yet. Set one with `/ci use owner/name`, and commands here may leave it out.',
    };
  }
  return {
    text: `This channel's repository is *${escapeMrkdwn(current.repo)}* on ${escapeMrkdwn(label)}, set by ${mention(current.setBy)} ${timeAgo(current.setAt, now)}. Forget it with \`/ci use --clear\`.`,
  };
}

/** With `userId`, the announcement ("<@U1> cleared …"); without, the confirmation to who cleared it. */
export function channelRepoCleared(
  userId: string | undefined,
  previous: ChannelDefault | undefined,
): SlackMessage {
  if (!previous) return { text: 'This channel had no repository set.' };
  const was = `*${escapeMrkdwn(previous.repo)}*`;
  return {
    text: userId
      ? `${mention(userId)} cleared this channel's repository (it was ${was}).`
      : `Cleared this channel's repository (it was ${was}).`,
  };
}
