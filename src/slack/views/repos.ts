import type { Repository } from '../../ci/schemas.js';
import { buildWebUrl, repoWebUrl } from '../../ci/web-links.js';
import type { Deployment } from '../../config.js';
import type { BranchBuild, RequestEntry } from '../../ops/repos.js';
import type { ChannelDefault } from '../../store/channel-defaults.js';
import { ACTIONS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, link, singleLine } from '../text/escape.js';
import { formatDuration, timeAgo } from '../text/format.js';
import { truncate } from '../text/truncate.js';
import { actions, button, context, fields, header, section } from './blocks.js';
import { listBlocks, mention, subjectOf } from './lines.js';
import { stateEmoji, stateWord } from './state.js';

/** Repository views (`repo`, `branches`, `requests`), activation and channel-repository messages. */

/** Where a repository lives: enough to link it and to name the deployment. */
export interface RepoPlace {
  deployment: Deployment;
  /** "travis-ci.com" */
  label: string;
  /** The deployment's web app, e.g. https://app.travis-ci.com */
  webUrl: string;
  now: Date;
}

/** Leaves room for the header and notes within Slack's ~12,000 characters of block text. */
const LIST_MAX_CHARS = 10_000;
const LIST_MAX_ITEMS = 100;

export function repoLink(place: Pick<RepoPlace, 'webUrl'>, slug: string): string {
  return link(repoWebUrl(place.webUrl, slug), slug);
}

export function repoMessage(repo: Repository, place: RepoPlace): SlackMessage {
  const description = repo.description?.trim()
    ? escapeMrkdwn(truncate(repo.description.trim(), 1_000))
    : '_No description._';
  const blocks: Block[] = [header(repo.slug), section(description)];
  const facts = [`*Builds*\n${activeWord(repo.active)}`];
  if (repo.last_build_id) {
    const number = repo.last_build_number ? `#${repo.last_build_number}` : 'last build';
    const url = buildWebUrl(place.webUrl, repo.slug, repo.last_build_id);
    facts.push(
      `*Last build*\n${stateEmoji(repo.last_build_state)} ${link(url, number)} ${escapeMrkdwn(stateWord(repo.last_build_state))}`,
    );
    if (typeof repo.last_build_duration === 'number') {
      facts.push(`*Took*\n${formatDuration(repo.last_build_duration)}`);
    }
    const when = repo.last_build_finished_at ?? repo.last_build_started_at;
    if (when) {
      const verb = repo.last_build_finished_at ? 'Finished' : 'Started';
      facts.push(`*${verb}*\n${timeAgo(when, place.now)}`);
    }
  } else {
    facts.push('*Last build*\nnone yet');
  }
  blocks.push(fields(facts));
  blocks.push(
    context(
      `${repoLink(place, repo.slug)} on ${escapeMrkdwn(place.label)} · ${link(`${repoWebUrl(place.webUrl, repo.slug)}/builds`, 'all builds')}`,
    ),
  );
  blocks.push(
    ...actions([
      repo.last_build_id
        ? button(ACTIONS.showBuild, 'Last build', { d: place.deployment, id: repo.last_build_id })
        : undefined,
      button(ACTIONS.openSettings, 'Settings', { d: place.deployment, repoId: repo.id, repo: repo.slug }),
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
  userMention: string,
  repo: Repository,
  active: boolean,
  place: Pick<RepoPlace, 'webUrl'>,
): SlackMessage {
  const verb = active ? 'enabled' : 'disabled';
  return { text: `${userMention} ${verb} ${repoLink(place, repo.slug)}` };
}

export function activationConfirmation(
  repo: Repository,
  active: boolean,
  place: Pick<RepoPlace, 'webUrl'>,
): SlackMessage {
  return {
    text: `${active ? 'Enabled' : 'Disabled'} ${repoLink(place, repo.slug)}: builds are ${active ? 'on' : 'off'}.`,
  };
}

export function branchesMessage(repo: Repository, branches: BranchBuild[], place: RepoPlace): SlackMessage {
  const title = `Branches of ${repo.slug}`;
  if (branches.length === 0) {
    return {
      text: escapeMrkdwn(title),
      blocks: [header(title), section(`No branch of ${repoLink(place, repo.slug)} has been built yet.`)],
    };
  }
  const blocks: Block[] = [
    header(title),
    ...listBlocks(branches, (b) => branchLine(b, repo, place), {
      maxItems: LIST_MAX_ITEMS,
      maxChars: LIST_MAX_CHARS,
      noun: 'branches',
    }),
  ];
  return { text: escapeMrkdwn(`${title}: ${branches.length}`), blocks };
}

function branchLine({ branch, build, commit }: BranchBuild, repo: Repository, place: RepoPlace): string {
  const name = branch ? `*${escapeMrkdwn(truncate(singleLine(branch), 100))}*` : '_unknown branch_';
  const number = link(buildWebUrl(place.webUrl, repo.slug, build.id), `#${build.number}`);
  const parts = [`${stateEmoji(build.state)} ${name} ${number} ${escapeMrkdwn(stateWord(build.state))}`];
  if (typeof build.duration === 'number' && build.duration > 0) parts.push(formatDuration(build.duration));
  const when = build.finished_at ?? build.started_at;
  if (when) parts.push(timeAgo(when, place.now));
  const subject = subjectOf(commit?.message, 60);
  if (subject) parts.push(escapeMrkdwn(subject));
  return parts.join(' · ');
}

const RESULT_EMOJI: Record<string, string> = {
  accepted: ':white_check_mark:',
  rejected: ':no_entry:',
};

export function requestsMessage(repo: Repository, requests: RequestEntry[], place: RepoPlace): SlackMessage {
  const title = `Requests of ${repo.slug}`;
  if (requests.length === 0) {
    return {
      text: escapeMrkdwn(title),
      blocks: [header(title), section(`${repoLink(place, repo.slug)} has no build requests yet.`)],
    };
  }
  const rejected = requests.filter((r) => r.request.result === 'rejected').length;
  const blocks: Block[] = [
    header(title),
    ...listBlocks(requests, (r) => requestLine(r, place), {
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

function requestLine({ request, commit }: RequestEntry, place: RepoPlace): string {
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
  const subject = subjectOf(commit?.message, 60);
  if (subject) parts.push(escapeMrkdwn(subject));
  if (request.created_at) parts.push(timeAgo(request.created_at, place.now));
  let line = parts.join(' · ');
  if (result === 'rejected') {
    const reason = request.message?.trim() ? truncate(singleLine(request.message), 300) : 'no reason given';
    line += `\n      ↳ _${escapeMrkdwn(reason)}_`;
  }
  return line;
}

export function channelRepoAnnouncement(
  userMention: string,
  repo: Repository,
  place: Pick<RepoPlace, 'webUrl' | 'label'>,
): SlackMessage {
  return {
    text: `${userMention} set this channel's repository to ${repoLink(place, repo.slug)} on ${escapeMrkdwn(place.label)}: commands here may now leave it out.`,
  };
}

export function channelRepoConfirmation(
  repo: Repository,
  place: Pick<RepoPlace, 'webUrl' | 'label'>,
): SlackMessage {
  return {
    text: `This channel's repository is now ${repoLink(place, repo.slug)} on ${escapeMrkdwn(place.label)}: commands here may leave it out.`,
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

export function channelRepoCleared(
  userMention: string | undefined,
  previous: ChannelDefault | undefined,
): SlackMessage {
  if (!previous) return { text: 'This channel had no repository set.' };
  const was = `*${escapeMrkdwn(previous.repo)}*`;
  return {
    text: userMention
      ? `${userMention} cleared this channel's repository (it was ${was}).`
      : `Cleared this channel's repository (it was ${was}).`,
  };
}
