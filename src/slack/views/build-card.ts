import type { types } from '@slack/bolt';
import { type Build, type Commit, isFinished, type Job } from '../../ci/schemas.js';
import { ACTIONS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, link } from '../text/escape.js';
import { capitalise, formatNumber, plural } from '../text/format.js';
import { MAX_BLOCKS_PER_MESSAGE, MAX_STATIC_SELECT_OPTIONS, MAX_TOTAL_BLOCK_TEXT } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { actions, type Button, button, context, header, section } from './blocks.js';
import {
  buildUrl,
  commitSubject,
  commitText,
  jobConfigSummary,
  jobUrl,
  originText,
  timingText,
} from './build-format.js';
import { blockTextLength } from './fit-blocks.js';
import { staticSelect } from './select.js';
import type { Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

/**
 * The build card: one build with its job matrix, shown by `/ci build`, the Details buttons, link
 * previews and (later) channel notifications.
 *
 * How a matrix of any size fits in one message (50 blocks, about 12,000 characters of text):
 * - jobs are ordered failed first (what people open a card for), then the rest in matrix order;
 * - each listed job is one section whose accessory is its Log button, so a job costs one block;
 * - per-job Restart and Cancel are two menus (static_select) in one actions block under the list,
 *   offering the listed jobs that can be restarted (finished) or canceled (not finished); Cancel
 *   has a confirm dialog. Menus cost one block for any number of jobs and keep the confirm dialog,
 *   which an overflow menu could only put in front of every item, Log included;
 * - jobs are added while both budgets allow, then "showing N of M jobs" links to the web page.
 */

export interface BuildCardInput {
  site: Site;
  slug: string;
  build: Build;
  commit: Commit | undefined;
  jobs: Job[];
  now: Date;
  /** The repository moved to this deployment ("travis-ci.com"): read-only here, so no Restart/Cancel. */
  movedTo?: string | undefined;
}

export interface BuildCardOptions {
  /** Jobs listed at most. Default 30. */
  maxJobs?: number;
  /** Buttons and menus (restart, cancel, logs). Default true. */
  interactive?: boolean;
  /** Blocks the card may use. Default 50 (a whole message). */
  maxBlocks?: number;
  /** Characters of block text the card may use. Default: a whole message, less a margin. */
  maxText?: number;
}

const DEFAULT_MAX_JOBS = 30;
/** Kept free for the closing note and the menus' own texts (placeholders, confirm dialog). */
const RESERVE_TEXT = 600;
const OPTION_TEXT_MAX = 40;

/** The fallback text: "rails/rails #6180 failed: Fix the thing". */
export function buildCardText(input: Pick<BuildCardInput, 'slug' | 'build' | 'commit'>): string {
  const subject = commitSubject(input.commit?.message, 80);
  return `${input.slug} #${input.build.number} ${stateWord(input.build.state)}${subject ? `: ${subject}` : ''}`;
}

export function buildDetailMessage(input: BuildCardInput): SlackMessage {
  return { text: buildCardText(input), blocks: buildCardBlocks(input) };
}

export function buildCardBlocks(input: BuildCardInput, options: BuildCardOptions = {}): Block[] {
  const { site, slug, build, now } = input;
  const interactive = options.interactive ?? true;
  const controls = interactive && input.movedTo === undefined;
  const maxBlocks = options.maxBlocks ?? MAX_BLOCKS_PER_MESSAGE;
  const maxText = (options.maxText ?? MAX_TOTAL_BLOCK_TEXT - 500) - RESERVE_TEXT;
  const url = buildUrl(site, slug, build.id);

  const blocks: Block[] = [
    header(`${slug} #${build.number}`),
    section(summaryText(input)),
    ...(controls ? buildButtons(input) : []),
    ...(input.movedTo ? [context(`Moved to ${escapeMrkdwn(input.movedTo)}: read-only here.`)] : []),
    context(matrixText(input.jobs, url, site)),
  ];
  const ordered = orderJobs(input.jobs);
  const shown: Job[] = [];
  let used = blocks.reduce((n, b) => n + blockTextLength(b), 0);
  // Room for the note and the menus' block after the jobs.
  let blocksForJobs = maxBlocks - blocks.length - 2;
  for (const job of ordered) {
    if (shown.length >= (options.maxJobs ?? DEFAULT_MAX_JOBS)) break;
    const jobBlocks = jobBlock(site, slug, job, now, interactive);
    const cost = jobBlocks.reduce((n, b) => n + blockTextLength(b), 0) + (interactive ? OPTION_TEXT_MAX : 0);
    if (jobBlocks.length > blocksForJobs || used + cost > maxText) break;
    blocks.push(...jobBlocks);
    shown.push(job);
    used += cost;
    blocksForJobs -= jobBlocks.length;
  }
  if (shown.length < ordered.length) {
    blocks.push(
      context(
        `Showing ${formatNumber(shown.length)} of ${plural(ordered.length, 'job')}, failed first · ${link(url, `all jobs on ${site.label}`)}`,
      ),
    );
  }
  if (controls) blocks.push(...jobMenus(site, build, shown));
  return blocks;
}

function summaryText(input: BuildCardInput): string {
  const { slug, build, commit, now } = input;
  const timing = timingText(build, now);
  const lines = [
    `${stateEmoji(build.state)} *${capitalise(stateWord(build.state))}*${timing ? ` · ${timing}` : ''}`,
    originText(slug, build, commit),
  ];
  const about = commitText(commit, 150);
  if (about) lines.push(about);
  return lines.join('\n');
}

function buildButtons(input: BuildCardInput): Block[] {
  return actions([restartBuildButton(input), cancelBuildButton(input)]);
}

/** "Restart build"; whoever clicks it acts with their own linked account. */
export function restartBuildButton(input: Pick<BuildCardInput, 'site' | 'build'>): Button {
  const { site, build } = input;
  return button(
    ACTIONS.restartBuild,
    'Restart build',
    { d: site.deployment, id: build.id },
    { suffix: String(build.id) },
  );
}

/** "Cancel build", behind a confirm dialog. */
export function cancelBuildButton(input: Pick<BuildCardInput, 'site' | 'slug' | 'build'>): Button {
  const { site, slug, build } = input;
  const name = `build #${build.number} of ${escapeMrkdwn(slug)}`;
  return button(
    ACTIONS.cancelBuild,
    'Cancel build',
    { d: site.deployment, id: build.id },
    {
      suffix: String(build.id),
      style: 'danger',
      confirm: {
        title: 'Cancel this build?',
        text: `Cancel ${name}? Its jobs that are still running stop now.`,
        confirm: 'Cancel build',
        deny: 'Keep it running',
      },
    },
  );
}

/** "12 jobs: 1 failed, 1 passed, 10 queued · Open on travis-ci.com". */
function matrixText(jobs: Job[], url: string, site: Site): string {
  const counts = new Map<string, number>();
  for (const job of jobs) counts.set(stateWord(job.state), (counts.get(stateWord(job.state)) ?? 0) + 1);
  const states = [...counts.entries()].map(([state, n]) => `${formatNumber(n)} ${escapeMrkdwn(state)}`);
  const matrix = jobs.length === 0 ? 'No jobs' : `${plural(jobs.length, 'job')}: ${states.join(', ')}`;
  return `${matrix} · ${link(url, `Open on ${site.label}`)}`;
}

function failureRank(job: Job): number {
  const failed = job.state === 'failed' || job.state === 'errored';
  if (failed && !job.allow_failure) return 0;
  return failed ? 1 : 2;
}

/** Failed jobs first (allowed failures after the others), then the rest in matrix order. */
export function orderJobs(jobs: Job[]): Job[] {
  return jobs
    .map((job, index) => ({ job, index }))
    .sort((a, b) => failureRank(a.job) - failureRank(b.job) || a.index - b.index)
    .map(({ job }) => job);
}

/** "❌ #6180.1 failed · rvm 1.9.3 · GEM=railties · 14m 16s · allowed to fail" */
export function jobLine(site: Site, slug: string, job: Job, now: Date): string {
  const config = jobConfigSummary(job.config);
  const timing = timingText(job, now, { ago: false });
  const parts = [
    `${stateEmoji(job.state)} ${link(jobUrl(site, slug, job.id), `#${job.number}`)} ${escapeMrkdwn(stateWord(job.state))}`,
    config ? escapeMrkdwn(config) : '',
    timing,
    job.allow_failure ? '_allowed to fail_' : '',
  ];
  return parts.filter((p) => p !== '').join(' · ');
}

/** One block per job, its Log button beside it; a job still running gets Log and Follow under it. */
function jobBlock(site: Site, slug: string, job: Job, now: Date, interactive: boolean): Block[] {
  const text = truncate(jobLine(site, slug, job, now), 400);
  if (!interactive) return [section(text)];
  const target = { d: site.deployment, id: job.id };
  const log = button(ACTIONS.showLog, 'Log', target, { suffix: String(job.id) });
  if (isFinished(job.state)) return [section(text, log)];
  return [
    section(text),
    ...actions([log, button(ACTIONS.followLog, 'Follow', target, { suffix: String(job.id) })]),
  ];
}

function jobOption(job: Job): string {
  const config = jobConfigSummary(job.config, OPTION_TEXT_MAX);
  return truncate(`#${job.number} ${stateWord(job.state)}${config ? ` · ${config}` : ''}`, OPTION_TEXT_MAX);
}

/** "Restart a job…" and "Cancel a job…" menus over the listed jobs that each applies to. */
function jobMenus(site: Site, build: Build, shown: Job[]): Block[] {
  const menus: types.StaticSelect[] = [];
  const options = (jobs: Job[]) =>
    jobs
      .slice(0, MAX_STATIC_SELECT_OPTIONS)
      .map((job) => ({ text: jobOption(job), value: { d: site.deployment, id: job.id } }));
  const restartable = shown.filter((job) => isFinished(job.state));
  const cancellable = shown.filter((job) => !isFinished(job.state));
  if (restartable.length > 0) {
    menus.push(
      staticSelect(ACTIONS.restartJob, 'Restart a job…', options(restartable), {
        suffix: String(build.id),
      }),
    );
  }
  if (cancellable.length > 0) {
    menus.push(
      staticSelect(ACTIONS.cancelJob, 'Cancel a job…', options(cancellable), {
        suffix: String(build.id),
        confirm: {
          title: 'Cancel this job?',
          text: 'The job you picked stops now; the rest of the build goes on.',
          confirm: 'Cancel job',
          deny: 'Keep it running',
        },
      }),
    );
  }
  return menus.length === 0 ? [] : [{ type: 'actions', elements: menus }];
}
