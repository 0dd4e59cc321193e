import { type Build, type Commit, isFinished, type Job } from '../../ci/schemas.js';
import type { BuildChange } from '../../notify/filters.js';
import type { JobLogTail } from '../../ops/logs.js';
import { ACTIONS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { codeBlock, MIN_CODE_BLOCK_CHARS } from '../text/code-block.js';
import { escapeMrkdwn, link } from '../text/escape.js';
import { fitList } from '../text/fit-list.js';
import { formatDuration, formatNumber, plural } from '../text/format.js';
import { MAX_SECTION_TEXT } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { actions, button, context, section } from './blocks.js';
import { buildCardText, cancelBuildButton, jobLine, orderJobs, restartBuildButton } from './build-card.js';
import { buildUrl, commitText, jobConfigSummary, jobUrl, originText } from './build-format.js';
import type { Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

/**
 * Build notifications: the parent message a channel (or a direct message) gets for a build, edited
 * as the build moves, and the reply with the failed jobs' log tails.
 *
 * The parent is rendered from the build alone (no "3 minutes ago": the message stays in the
 * channel for days, so it shows durations and Slack-formatted times instead), which also makes the
 * same build render the same text twice, so an unchanged state costs no edit. Its size does not
 * grow with the matrix: the jobs are counted, and at most a few failed ones are listed.
 */

export interface NotificationInput {
  site: Site;
  slug: string;
  build: Build;
  commit: Commit | undefined;
  jobs: Job[];
  /** Set for a finished build compared with the previous one of its branch. */
  change?: BuildChange | undefined;
}

/** Failed jobs listed in the parent message at most. */
const LISTED_FAILED_JOBS = 5;
/** Characters the failed-jobs section may use (a section holds 3,000). */
const FAILED_SECTION_CHARS = MAX_SECTION_TEXT - 200;

const CHANGE_WORDS: Record<BuildChange, string> = {
  broken: 'broken',
  fixed: 'fixed',
  still_failing: 'still failing',
};

export function notificationMessage(input: NotificationInput): SlackMessage {
  const { site, slug, build } = input;
  const url = buildUrl(site, slug, build.id);
  const blocks: Block[] = [
    section(summaryText(input, url)),
    context(`${jobSummary(input.jobs)} · ${link(url, `Open on ${site.label}`)}`),
  ];
  const failed = failedJobsText(input);
  if (failed) blocks.push(section(failed));
  const control = isFinished(build.state) ? restartBuildButton(input) : cancelBuildButton(input);
  const details = button(
    ACTIONS.showBuild,
    'Details',
    { d: site.deployment, id: build.id },
    { suffix: String(build.id) },
  );
  blocks.push(...actions([control, details]));
  return { text: notificationText(input), blocks };
}

/** "rails/rails #6180 failed: Fix the thing", escaped (it is the notification a phone shows). */
export function notificationText(
  input: Pick<NotificationInput, 'slug' | 'build' | 'commit' | 'change'>,
): string {
  const change = input.change ? ` (${CHANGE_WORDS[input.change]})` : '';
  return escapeMrkdwn(`${buildCardText(input)}${change}`);
}

function summaryText(input: NotificationInput, url: string): string {
  const { slug, build, commit, change } = input;
  const headline = [
    `${stateEmoji(build.state)} *${link(url, `${slug} #${build.number}`)}* ${escapeMrkdwn(stateWord(build.state))}${timing(build)}`,
    change ? `_${CHANGE_WORDS[change]}_` : '',
  ]
    .filter((part) => part !== '')
    .join(' · ');
  const lines = [headline, originText(slug, build, commit)];
  const about = commitText(commit, 150);
  if (about) lines.push(about);
  return lines.join('\n');
}

/** " in 4m 12s" for a finished build, " · started <time>" for a running one. */
function timing(build: Build): string {
  if (isFinished(build.state)) {
    const seconds = build.duration ?? secondsBetween(build.started_at, build.finished_at);
    return seconds === undefined ? '' : ` in ${formatDuration(seconds)}`;
  }
  if (build.state !== 'started' || !build.started_at) return '';
  const started = Date.parse(build.started_at);
  if (Number.isNaN(started)) return '';
  // Slack shows the time in each reader's own time zone; the fallback is UTC.
  const fallback = `${new Date(started).toISOString().slice(11, 16)} UTC`;
  return ` · started <!date^${Math.floor(started / 1000)}^{time}|${fallback}>`;
}

function secondsBetween(from: string | null | undefined, to: string | null | undefined): number | undefined {
  const start = from ? Date.parse(from) : Number.NaN;
  const end = to ? Date.parse(to) : Number.NaN;
  return Number.isNaN(start) || Number.isNaN(end) ? undefined : Math.max(0, (end - start) / 1000);
}

const SUMMARY_ORDER = ['passed', 'failed', 'errored', 'allowed to fail', 'canceled', 'running', 'queued'];

const isFailure = (job: Job) => job.state === 'failed' || job.state === 'errored';

function jobCategory(job: Job): string {
  return isFailure(job) && job.allow_failure ? 'allowed to fail' : stateWord(job.state);
}

/** "12 jobs: 3 passed · 1 failed · 1 allowed to fail · 7 running". */
export function jobSummary(jobs: Job[]): string {
  if (jobs.length === 0) return 'No jobs';
  const counts = new Map<string, number>();
  for (const job of jobs) counts.set(jobCategory(job), (counts.get(jobCategory(job)) ?? 0) + 1);
  const rank = (category: string) => {
    const index = SUMMARY_ORDER.indexOf(category);
    return index === -1 ? SUMMARY_ORDER.length : index;
  };
  const parts = [...counts.entries()]
    .sort(([a], [b]) => rank(a) - rank(b))
    .map(([category, n]) => `${formatNumber(n)} ${escapeMrkdwn(category)}`);
  return `${plural(jobs.length, 'job')}: ${parts.join(' · ')}`;
}

/** The failed jobs (those that may not fail first), a few at most, with a count of the rest. */
function failedJobsText(input: NotificationInput): string {
  const { site, slug, build } = input;
  const failed = orderJobs(input.jobs).filter(isFailure);
  if (failed.length === 0) return '';
  // A finished job's line shows its duration only, so the time passed in does not matter.
  const at = new Date(Date.parse(build.finished_at ?? '') || 0);
  const list = fitList(failed, (job) => truncate(jobLine(site, slug, job, at), 400), {
    maxItems: LISTED_FAILED_JOBS,
    maxChars: FAILED_SECTION_CHARS,
  });
  const more = list.omitted > 0 ? `\n…and ${plural(list.omitted, 'more failed job')}` : '';
  return `${list.shown.join('\n')}${more}`;
}

// ---- the failure reply ----

/** What was read of one failed job's log. */
export interface FailedJobLog {
  job: Job;
  /** The end of the log; absent when it could not be read. */
  tail?: JobLogTail;
  /** Why the log could not be read, in a few words (plain text). */
  problem?: string;
}

export interface FailureLogsInput {
  site: Site;
  slug: string;
  build: Pick<Build, 'id' | 'number'>;
  /** In the order to show them: jobs that may not fail first. */
  logs: FailedJobLog[];
  /** Failed jobs whose logs were not read (beyond the cap), in the same order. */
  notShown: Job[];
}

/** Characters of the whole reply: a long message is hard to read, and Slack folds it anyway. */
export const FAILURE_REPLY_CHARS = 12_000;
/** Characters of one job's code block, fences included, at most. */
const MAX_JOB_CODE_CHARS = 4_000;

/**
 * The reply under a failed build: per failed job a line (state, config, link to the full log) and
 * the last lines of its log in a code block, cut so the whole reply stays within
 * FAILURE_REPLY_CHARS. Text only (no blocks): a section holds 3,000 characters, a message many more.
 */
export function failureLogsMessage(input: FailureLogsInput): SlackMessage {
  const { site, slug, build, logs, notShown } = input;
  const url = buildUrl(site, slug, build.id);
  const total = logs.length + notShown.length;
  const title = `*Failed ${total === 1 ? 'job' : 'jobs'} of ${link(url, `${slug} #${build.number}`)}*`;
  const shownNote =
    notShown.length > 0 ? ` · logs of ${formatNumber(logs.length)} of ${formatNumber(total)}` : '';
  const rest = notShownText(site, slug, notShown, url);
  const heading = `${title}${shownNote}`;
  const parts: string[] = [heading];
  let left = FAILURE_REPLY_CHARS - heading.length - rest.length - 2;
  logs.forEach((entry, index) => {
    const head = jobHead(site, slug, entry);
    const share = Math.floor((left - head.length * (logs.length - index)) / (logs.length - index)) - 2;
    const body =
      entry.tail && !entry.tail.empty
        ? codeBlock(
            entry.tail.lines.join('\n'),
            Math.max(MIN_CODE_BLOCK_CHARS, Math.min(MAX_JOB_CODE_CHARS, share)),
          )
        : `_${escapeMrkdwn(entry.problem ?? 'The log is empty.')}_`;
    const piece = `${head}\n${body}`;
    parts.push(piece);
    left -= piece.length + 1;
  });
  if (rest) parts.push(rest);
  return { text: parts.join('\n') };
}

function jobHead(site: Site, slug: string, entry: FailedJobLog): string {
  const { job, tail } = entry;
  const config = jobConfigSummary(job.config, 100);
  const lines =
    tail && !tail.empty
      ? tail.lines.length < tail.totalLines
        ? `last ${formatNumber(tail.lines.length)} of ${plural(tail.totalLines, 'line')}`
        : plural(tail.lines.length, 'line')
      : '';
  return [
    `${stateEmoji(job.state)} ${link(jobUrl(site, slug, job.id), `#${job.number}`)} ${escapeMrkdwn(stateWord(job.state))}`,
    config ? escapeMrkdwn(config) : '',
    job.allow_failure ? '_allowed to fail_' : '',
    lines,
    link(jobUrl(site, slug, job.id), 'Full log'),
  ]
    .filter((part) => part !== '')
    .join(' · ');
}

function notShownText(site: Site, slug: string, jobs: Job[], url: string): string {
  if (jobs.length === 0) return '';
  const list = fitList(jobs, (job) => link(jobUrl(site, slug, job.id), `#${job.number}`), {
    maxItems: 20,
    maxChars: 1_500,
    separator: ', ',
  });
  const more = list.omitted > 0 ? ` and ${formatNumber(list.omitted)} more` : '';
  return `Also failed: ${list.shown.join(', ')}${more} · ${link(url, 'the whole build')}`;
}
