import type { ControlTarget, ControlVerb } from '../../ops/build-control.js';
import {
  type BuildEntry,
  type BuildFilters,
  type BuildPage,
  MAX_PAGES_PER_SCAN,
  type RepoStatus,
  SERVICE_PAGE_SIZE,
} from '../../ops/builds.js';
import { ACTIONS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, link, mention } from '../text/escape.js';
import { fitList } from '../text/fit-list.js';
import { capitalise, formatNumber } from '../text/format.js';
import { MAX_TOTAL_BLOCK_TEXT } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { actions, button, context, section } from './blocks.js';
import { buildUrl, commitText, jobUrl, originText, timingText } from './build-format.js';
import { repoLink, type Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

/** `/ci builds` (a page of builds with an Older button), `/ci status`, and restart/cancel announcements. */

const DETAILS = 'Details';
const ROW_MAX = 450;

function filterText(filters: BuildFilters): string {
  const parts: string[] = [];
  if (filters.event === 'pull_request') parts.push('pull requests');
  if (filters.event === 'push') parts.push('pushes');
  if (filters.branch !== undefined) parts.push(`on ${inlineCode(filters.branch)}`);
  return parts.join(' ');
}

/** "❌ #6180 failed · `master` · push" / "_Fix the thing_ · Ada · 1h 2m · finished 3 hours ago" */
export function buildRow(site: Site, slug: string, entry: BuildEntry, now: Date): string {
  const { build, commit } = entry;
  const first = `${stateEmoji(build.state)} ${link(buildUrl(site, slug, build.id), `#${build.number}`)} *${escapeMrkdwn(stateWord(build.state))}* · ${originText(slug, build, commit)}`;
  const second = [commitText(commit, 100), timingText(build, now)].filter((p) => p !== '').join(' · ');
  return truncate(second ? `${first}\n${second}` : first, ROW_MAX);
}

export function buildListMessage(page: BuildPage, site: Site, now: Date): SlackMessage {
  const slug = page.repo.slug;
  const filters = filterText(page.filters);
  const from = page.afterNumber === undefined ? '' : ` before #${escapeMrkdwn(page.afterNumber)}`;
  const title = `*Builds of ${repoLink(site, slug)}*${filters ? ` (${filters})` : ''}${from}`;
  const blocks: Block[] = [section(title)];

  // Each row is a section with a Details button: both count towards Slack's text total.
  const fitted = fitList(page.entries, (entry) => buildRow(site, slug, entry, now), {
    maxItems: page.entries.length,
    maxChars: MAX_TOTAL_BLOCK_TEXT - 1_500 - page.entries.length * DETAILS.length,
    separator: '',
  });
  fitted.shown.forEach((row, index) => {
    const build = page.entries[index]?.build;
    if (!build) return;
    blocks.push(
      section(
        row,
        button(
          ACTIONS.showBuild,
          DETAILS,
          { d: site.deployment, id: build.id },
          { suffix: String(build.id) },
        ),
      ),
    );
  });

  const lastShown = page.entries[fitted.shown.length - 1]?.build.number;
  const next = fitted.omitted > 0 ? lastShown : page.nextAfterNumber;
  if (fitted.shown.length === 0) blocks.push(context(emptyText(page, filters)));
  else if (fitted.note) blocks.push(context(`${fitted.note} builds (cut to fit Slack)`));
  if (next !== undefined) {
    blocks.push(
      ...actions([
        button(ACTIONS.olderBuilds, 'Older builds', {
          d: site.deployment,
          repo: slug,
          after: next,
          ...(page.filters.branch !== undefined ? { branch: page.filters.branch } : {}),
          ...(page.filters.event !== undefined ? { event: page.filters.event } : {}),
        }),
      ]),
    );
  }
  return { text: `Builds of ${slug}`, blocks };
}

function emptyText(page: BuildPage, filters: string): string {
  if (page.scanLimited) {
    return `No builds ${filters} among the ${formatNumber(SERVICE_PAGE_SIZE * MAX_PAGES_PER_SCAN)} builds looked at; try *Older builds* to look further back.`;
  }
  if (filters) return `No builds ${filters}${page.afterNumber === undefined ? '' : ' older than these'}.`;
  return page.afterNumber === undefined ? 'No builds yet.' : 'No older builds.';
}

/** `/ci status`: the last build in one line, with a button to show it. */
export function statusMessage(status: RepoStatus, site: Site, now: Date): SlackMessage {
  const slug = status.repo.slug;
  const repo = repoLink(site, slug);
  const last = status.lastBuild;
  if (!last) {
    return { text: `${slug} has no builds yet.`, blocks: [section(`${repo} has no builds yet.`)] };
  }
  const state = last.state ?? 'unknown';
  const number = last.number ? `#${last.number}` : `${last.id}`;
  const timing = timingText(
    { state, duration: last.duration, started_at: last.startedAt, finished_at: last.finishedAt },
    now,
  );
  const text = `${stateEmoji(state)} ${repo}: build ${link(buildUrl(site, slug, last.id), number)} *${escapeMrkdwn(stateWord(state))}*${timing ? ` · ${timing}` : ''}`;
  return {
    text: `${slug}: build ${number} ${stateWord(state)}`,
    blocks: [section(text, button(ACTIONS.showBuild, 'Show build', { d: site.deployment, id: last.id }))],
  };
}

const PAST: Record<ControlVerb, string> = { restart: 'restarted', cancel: 'canceled' };

function targetLink(site: Site, target: ControlTarget): string {
  const slug = target.repo.slug;
  const url = target.type === 'build' ? buildUrl(site, slug, target.id) : jobUrl(site, slug, target.id);
  return `${target.type} ${link(url, `#${target.number}`)} of ${escapeMrkdwn(slug)}`;
}

/** In the channel: "<@U123> restarted build #123 of owner/name" (the build linked). */
export function controlAnnouncement(
  userId: string,
  verb: ControlVerb,
  target: ControlTarget,
  site: Site,
): SlackMessage {
  return { text: `${mention(userId)} ${PAST[verb]} ${targetLink(site, target)}` };
}

/** To the person who acted, when the announcement was left out: "Restarted build #123 of owner/name." */
export function controlConfirmation(verb: ControlVerb, target: ControlTarget, site: Site): SlackMessage {
  return { text: `${capitalise(PAST[verb])} ${targetLink(site, target)}.` };
}
