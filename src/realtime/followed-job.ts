import { setTimeout as sleep } from 'node:timers/promises';
import { z } from 'zod';
import type { CiSession } from '../ci/client.js';
import { getJob } from '../ci/jobs.js';
import { LiveTail, type LogPartInput } from '../ci/log-text/index.js';
import { getLogParts } from '../ci/logs.js';
import { isFinished, type Job } from '../ci/schemas.js';
import type { Logger } from '../log.js';
import { MESSAGE_ERRORS } from '../slack/outbox/errors.js';
import { type SlackOutbox, SlackOutboxError } from '../slack/outbox/index.js';
import { type FollowedJobView, finalTailMessage, liveTailMessage } from '../slack/views/follow.js';
import type { FollowRecord } from '../store/follows.js';
import { EditSchedule } from './edit-schedule.js';
import { type RealtimeHub, RealtimeUnavailableError } from './hub.js';

/** How a followed job's tail moves; every value in milliseconds. */
export interface FollowTiming {
  /** At most one edit of a tail message per this (LOG_UPDATE_INTERVAL_MS); also the REST poll
   * period when the deployment has no realtime service. */
  updateIntervalMs: number;
  /** A hole in the parts (a later part came, an earlier one not) waits this long for the missing
   * part before the parts are fetched over REST. */
  gapWaitMs: number;
  /** Once REST says the job finished, the final part gets this long to arrive; once the final part
   * is in, REST gets this long to say the job finished. Then the follow ends anyway. */
  finishGraceMs: number;
  /** While waiting for REST to say the job finished, it is asked again this often. */
  stateRetryMs: number;
}

/** Lines shown in a tail message. */
export const TAIL_LINES = 40;

/** What a followed job needs from its owner (`LogFollower`). */
export interface FollowOwner {
  outbox: SlackOutbox;
  realtime: RealtimeHub;
  logger: Logger;
  timing: FollowTiming;
  /** Whether the repository is private; undefined when it could not be told. */
  repoIsPrivate(session: CiSession, repositoryId: number): Promise<boolean | undefined>;
  /** A realtime subscription of this deployment is live: fetch over REST after each reconnect. */
  watchReconnects(deployment: FollowRecord['deployment']): void;
  /** The follow ended by itself: `finished` (the final edit is in) or `gone` (its message vanished). */
  ended(job: FollowedJob, how: 'finished' | 'gone'): void;
}

/** A `job:log` event: the text is `_log` (travis-logs) or `content` (the spec). */
const logEvent = z.looseObject({
  number: z.number().int().nonnegative(),
  _log: z.string().nullish(),
  content: z.string().nullish(),
  final: z.boolean().nullish(),
});

/**
 * One followed job in one channel: the last lines of its log (LiveTail: parts in any order,
 * duplicates ignored), kept current from realtime `job:log` events, and from REST whenever parts
 * may have been missed (at the start, after a reconnect, when a hole does not fill, when realtime
 * stayed quiet, and when the job ends); its tail message is edited at most once per
 * `updateIntervalMs` (see EditSchedule), and only when its text changed. Without realtime it polls
 * the REST parts instead.
 */
export class FollowedJob {
  readonly #owner: FollowOwner;
  readonly #log: Logger;
  readonly #tail = new LiveTail({ maxLines: TAIL_LINES });
  readonly #halt = new AbortController();
  #job: Job;
  #active = true;
  #unsubscribe: Array<() => void> = [];
  /** What the tail message shows: the tail up to `part`, the job in `state` (undefined: unknown). */
  #shown: { part: number; state: string } | undefined;
  readonly #schedule: EditSchedule;
  #editTimer: NodeJS.Timeout | undefined;
  #gapTimer: NodeJS.Timeout | undefined;
  #pollTimer: NodeJS.Timeout | undefined;
  #graceTimer: NodeJS.Timeout | undefined;
  #fetching: Promise<void> | undefined;
  #fetchAgain = false;
  #ending: Promise<void> | undefined;
  /** A realtime part came since the owner's last REST check. */
  #heardSinceCheck = false;

  constructor(
    owner: FollowOwner,
    readonly record: FollowRecord & { messageTs: string },
    readonly session: CiSession,
    job: Job,
    readonly view: FollowedJobView,
    /** The job's state the tail message was just posted with, no lines yet; undefined when unknown. */
    postedState: string | undefined,
  ) {
    this.#owner = owner;
    this.#job = job;
    this.#shown =
      postedState === undefined ? undefined : { part: this.#tail.highestContiguous, state: postedState };
    this.#schedule = new EditSchedule(owner.timing.updateIntervalMs, Date.now());
    this.#log = owner.logger.child({ follow: record.id });
  }

  get id(): string {
    return this.record.id;
  }

  get deployment(): FollowRecord['deployment'] {
    return this.record.deployment;
  }

  /** Listens for live parts, then reads the parts that exist over REST and shows them at once. */
  async begin(): Promise<void> {
    await this.#listen();
    await this.catchUp();
    if (this.#editTimer === undefined) this.#edit(Date.now());
  }

  /** Fetches the parts over REST (one fetch at a time; a request during one runs once after it). */
  catchUp(): Promise<void> {
    if (this.#fetching) {
      this.#fetchAgain = true;
      return this.#fetching;
    }
    const run = async () => {
      do {
        this.#fetchAgain = false;
        await this.#fetchParts();
      } while (this.#fetchAgain && this.#active);
    };
    this.#fetching = run().finally(() => {
      this.#fetching = undefined;
    });
    return this.#fetching;
  }

  /** The job as REST shows it now (from the owner's periodic check). */
  jobChecked(job: Job): void {
    if (!this.#active) return;
    const moved = job.state !== this.#job.state;
    this.#job = job;
    if (moved) this.#changed();
    if (isFinished(job.state) && this.#graceTimer === undefined) {
      // Logs trail the job's state: give the final part a moment after one more REST read.
      this.#graceTimer = setTimeout(() => void this.finish(), this.#owner.timing.finishGraceMs);
      void this.catchUp();
    } else if (!this.#heardSinceCheck) {
      // Realtime said nothing since the last check: make sure nothing was lost on the way.
      void this.catchUp();
    }
    this.#heardSinceCheck = false;
  }

  /**
   * Ends the follow with its final edit (state, duration, link), after one last REST read when the
   * final part was not seen and after REST says the job finished (or the grace time passed).
   */
  finish(): Promise<void> {
    this.#ending ??= this.#finish();
    return this.#ending;
  }

  /** Stops here without a final edit: the process shuts down, or another one took the follow over. */
  halt(): void {
    this.#halt.abort();
    this.#deactivate();
  }

  async #finish(): Promise<void> {
    this.#deactivate();
    const signal = this.#halt.signal;
    try {
      if (!this.#tail.done) await this.#fetchParts();
      const job = await this.#finishedJob(signal);
      if (signal.aborted) return;
      const message = finalTailMessage(this.view, this.#tail.lines(), {
        state: job.state,
        startedAt: job.started_at,
        finishedAt: job.finished_at,
      });
      await this.#owner.outbox.update({ ...this.#target(), ...message, final: true });
    } catch (error) {
      if (isClosed(error)) return; // never sent: the next owner sends it
      if (!isGone(error)) this.#log.warn({ err: error }, 'the final edit of a followed log failed');
    }
    // Even when the process began to stop meanwhile: the final state is out, the follow is over.
    this.#owner.ended(this, 'finished');
  }

  /** The job once REST says it finished, or as last known when that takes longer than the grace time. */
  async #finishedJob(signal: AbortSignal): Promise<Job> {
    const { finishGraceMs, stateRetryMs } = this.#owner.timing;
    const deadline = Date.now() + finishGraceMs;
    while (!isFinished(this.#job.state) && Date.now() < deadline && !signal.aborted) {
      try {
        this.#job = (await getJob(this.session, this.record.jobId)).job;
      } catch (error) {
        this.#log.debug({ err: error }, 'could not read a followed job');
      }
      if (isFinished(this.#job.state)) break;
      await sleep(stateRetryMs, undefined, { signal }).catch(() => {});
    }
    return this.#job;
  }

  async #listen(): Promise<void> {
    const { realtime } = this.#owner;
    const { jobId, deployment } = this.record;
    const handler = (event: string, data: unknown) => this.#onEvent(event, data);
    // Our own token signs private channels (and every channel when the deployment prefixes them all).
    const authority = async () => this.session;
    try {
      const isPrivate = await this.#owner.repoIsPrivate(this.session, this.#job.repository_id);
      const channels =
        isPrivate === undefined
          ? [`job-${jobId}`, `private-job-${jobId}`]
          : [isPrivate ? `private-job-${jobId}` : `job-${jobId}`];
      for (const channel of channels) {
        const stop = await realtime.subscribe(deployment, channel, handler, authority);
        if (!this.#active) return stop();
        this.#unsubscribe.push(stop);
      }
      this.#owner.watchReconnects(deployment);
    } catch (error) {
      this.#stopListening();
      if (!(error instanceof RealtimeUnavailableError)) {
        this.#log.warn({ err: error }, 'realtime unavailable for a followed log; polling REST instead');
      }
      this.#poll();
    }
  }

  #poll(): void {
    if (!this.#active) return;
    this.#pollTimer = setTimeout(() => {
      this.#pollTimer = undefined;
      void this.catchUp().then(() => this.#poll());
    }, this.#owner.timing.updateIntervalMs);
  }

  #onEvent(event: string, data: unknown): void {
    if (event !== 'job:log' || !this.#active) return;
    const parsed = logEvent.safeParse(data);
    if (!parsed.success) {
      this.#log.debug({ issues: parsed.error.issues.length }, 'ignored a malformed job:log event');
      return;
    }
    const { number, _log, content, final } = parsed.data;
    this.#heardSinceCheck = true;
    this.#add({ number, content: _log ?? content ?? '', final: final === true });
  }

  #add(part: LogPartInput): void {
    if (!this.#tail.add(part)) return;
    if (!this.#active) return;
    if (this.#tail.done) {
      void this.finish();
      return;
    }
    if (part.number > this.#tail.highestContiguous) this.#watchGap();
    this.#changed();
  }

  async #fetchParts(): Promise<void> {
    try {
      let logId = this.#job.log_id;
      if (logId === null || logId === undefined) {
        this.#job = (await getJob(this.session, this.record.jobId)).job;
        logId = this.#job.log_id;
        if (logId === null || logId === undefined) return;
      }
      const { parts } = await getLogParts(this.session, logId);
      parts.sort((a, b) => a.number - b.number);
      for (const part of parts) this.#add(part);
    } catch (error) {
      this.#log.warn({ err: error }, 'could not fetch the parts of a followed log');
    }
  }

  #watchGap(): void {
    if (this.#gapTimer !== undefined) return;
    this.#gapTimer = setTimeout(() => {
      this.#gapTimer = undefined;
      if (this.#active && this.#tail.missing.length > 0) void this.catchUp();
    }, this.#owner.timing.gapWaitMs);
  }

  /**
   * Something changed: edit at the next time the schedule allows (at most one edit per
   * `updateIntervalMs`, on this tail's own grid). An edit still waiting in the outbox when the next
   * one goes is replaced by it in place, so what reaches Slack is always the newest tail.
   */
  #changed(): void {
    if (!this.#active || this.#editTimer !== undefined) return;
    const now = Date.now();
    const at = this.#schedule.nextAt(now);
    this.#editTimer = setTimeout(() => this.#edit(at), at - now);
  }

  #edit(slot: number): void {
    this.#editTimer = undefined;
    if (!this.#active) return;
    // The tail changes only when a part is folded in, so the part number and the state say whether
    // the text would (comparing the texts kept 4 KB per tail alive for nothing).
    const shown = { part: this.#tail.highestContiguous, state: this.#job.state };
    if (shown.part === this.#shown?.part && shown.state === this.#shown.state) return;
    this.#shown = shown;
    const message = liveTailMessage(this.view, this.#tail.lines(), shown.state);
    this.#schedule.sent(slot);
    this.#owner.outbox.update({ ...this.#target(), ...message }).catch((error: unknown) => {
      if (isGone(error)) {
        this.#log.info({ code: (error as SlackOutboxError).code }, 'a followed log lost its message');
        this.#deactivate();
        this.#owner.ended(this, 'gone');
      } else if (!isClosed(error)) {
        this.#log.warn({ err: error }, 'an edit of a followed log failed');
      }
    });
  }

  #target() {
    return { teamId: this.record.teamId, channel: this.record.channelId, ts: this.record.messageTs };
  }

  #deactivate(): void {
    this.#active = false;
    for (const timer of [this.#editTimer, this.#gapTimer, this.#pollTimer, this.#graceTimer]) {
      clearTimeout(timer);
    }
    this.#editTimer = this.#gapTimer = this.#pollTimer = this.#graceTimer = undefined;
    this.#stopListening();
  }

  #stopListening(): void {
    for (const stop of this.#unsubscribe.splice(0)) stop();
  }
}

/** The message or its channel is gone: editing it again would fail the same way. */
function isGone(error: unknown): boolean {
  return error instanceof SlackOutboxError && MESSAGE_ERRORS.has(error.code);
}

function isClosed(error: unknown): boolean {
  return error instanceof SlackOutboxError && error.code === 'outbox_closed';
}
