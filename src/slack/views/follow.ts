import type { SlackMessage } from '../reply.js';
import { codeBlock } from '../text/code-block.js';
import { escapeMrkdwn, link } from '../text/escape.js';
import { formatDuration, formatNumber } from '../text/format.js';
import { jobUrl } from './build-format.js';
import { LOG_CODE_CHARS } from './log.js';
import type { Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

/**
 * A followed job's live log: the parent line (when the build has no message of its own in the
 * channel), the tail message edited while the job runs and its final state, and the private
 * answers to whoever asked. Text only, like `/ci logs`: a message's text holds far more of a log
 * than a section block, and the log sits in a code block that a stray ``` cannot close.
 */

export interface FollowedJobView {
  site: Site;
  slug: string;
  job: { id: number; number: string };
}

export interface JobTiming {
  state: string;
  startedAt?: string | null | undefined;
  finishedAt?: string | null | undefined;
}

/** "job #123.2 of owner/name", the number linked to the job's page. */
function jobName(view: FollowedJobView): string {
  return `job ${link(jobUrl(view.site, view.slug, view.job.id), `#${view.job.number}`)} of ${escapeMrkdwn(view.slug)}`;
}

function fullLog(view: FollowedJobView): string {
  return link(jobUrl(view.site, view.slug, view.job.id), `Full log on ${view.site.label}`);
}

function logBody(lines: string[]): string {
  return lines.length === 0 ? '_No output yet._' : codeBlock(lines.join('\n'), LOG_CODE_CHARS);
}

/** Posted in the channel when the build has no message there to thread under. */
export function followParentMessage(view: FollowedJobView, userId: string): SlackMessage {
  return { text: `<@${userId}> is following ${jobName(view)}.` };
}

/** The tail while the job runs (or waits to start). */
export function liveTailMessage(view: FollowedJobView, lines: string[], state: string): SlackMessage {
  const status =
    state === 'started'
      ? ':arrows_counterclockwise: *Live log*'
      : `${stateEmoji(state)} *Live log* · ${escapeMrkdwn(stateWord(state))}`;
  return { text: `${status} of ${jobName(view)} · ${fullLog(view)}\n${logBody(lines)}` };
}

/** The last state: what the job ended as, how long it ran, and the link to the whole log. */
export function finalTailMessage(view: FollowedJobView, lines: string[], timing: JobTiming): SlackMessage {
  const seconds = durationSeconds(timing);
  const took = seconds === undefined ? '' : ` in ${formatDuration(seconds)}`;
  const ended = `${stateEmoji(timing.state)} *${capitalised(jobName(view))} ${escapeMrkdwn(stateWord(timing.state))}*${took}`;
  return { text: `${ended} · ${fullLog(view)}\n${logBody(lines)}` };
}

/**
 * Why a follow ended before its job: the account reading it was unlinked or lost access (`userId`
 * is its owner), or someone asked to stop (`userId` is who asked).
 */
export type StopReason = { kind: 'unlinked' | 'no_access' | 'asked'; userId: string };

const STOP_WHY: Record<StopReason['kind'], (userId: string) => string> = {
  unlinked: (userId) => `<@${userId}>, whose account read this log, is no longer linked`,
  no_access: (userId) => `the account of <@${userId}> can no longer read this job`,
  asked: (userId) => `<@${userId}> stopped it`,
};

export function stoppedTailMessage(view: FollowedJobView, reason: StopReason): SlackMessage {
  const why = STOP_WHY[reason.kind](reason.userId);
  return { text: `:double_vertical_bar: *Stopped following ${jobName(view)}*: ${why}. ${fullLog(view)}` };
}

function durationSeconds(timing: JobTiming): number | undefined {
  const started = timing.startedAt ? Date.parse(timing.startedAt) : Number.NaN;
  const finished = timing.finishedAt ? Date.parse(timing.finishedAt) : Number.NaN;
  if (Number.isNaN(started) || Number.isNaN(finished) || finished < started) return undefined;
  return (finished - started) / 1000;
}

function capitalised(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

// ---- private answers to the person who asked ----

function where(permalink: string | undefined, label: string): string {
  return permalink ? link(permalink, label) : label;
}

export function followStartedReply(view: FollowedJobView, permalink: string | undefined): SlackMessage {
  return {
    text: `Following ${jobName(view)} live in ${where(permalink, 'a thread in this channel')}. The thread shows its last lines until it finishes.`,
  };
}

export function alreadyFollowedReply(view: FollowedJobView, permalink: string | undefined): SlackMessage {
  return {
    text: `${capitalised(jobName(view))} is already followed in this channel: see ${where(permalink, 'its thread')}.`,
  };
}

export function followStoppingReply(view: FollowedJobView): SlackMessage {
  return {
    text: `Stopping the live log of ${jobName(view)} in this channel: its thread keeps the lines shown so far.`,
  };
}

export function notFollowedReply(subject: string): SlackMessage {
  return {
    text: `${capitalised(escapeMrkdwn(subject))} is not followed in this channel, so there is nothing to stop.`,
  };
}

export function followCapacityReply(max: number): SlackMessage {
  return {
    text: `I am already following ${formatNumber(max)} jobs, as many as I follow at once. Try again when one of them has finished, or read the log now with \`/ci logs\`.`,
  };
}

export function jobFinishedReply(view: FollowedJobView, state: string): SlackMessage {
  return {
    text: `${capitalised(jobName(view))} has already finished (${escapeMrkdwn(stateWord(state))}), so there is nothing to follow. Its last lines are below.`,
  };
}

export function followNeedsChannelReply(): SlackMessage {
  return {
    text: 'A live log goes in a thread of a channel: run `/ci logs <job> --follow` in a channel I am in.',
  };
}

export function cannotPostReply(): SlackMessage {
  return {
    text: 'I cannot post in this conversation. Invite me to the channel (`/invite @CI`) and try again.',
  };
}
