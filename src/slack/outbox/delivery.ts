import type { webApi } from '@slack/bolt';
import type { Logger } from '../../log.js';
import {
  CHANNEL_ERRORS,
  classifyFailure,
  type Failure,
  MESSAGE_ERRORS,
  outboxError,
  type SlackOutboxError,
} from './errors.js';
import { absorbEdit, type EditJob, type Job, type PostJob, targetOf, type Waiter } from './jobs.js';
import { Scheduler } from './scheduler.js';
import { callSlack, postedMessage } from './send.js';
import type { OutboxSettings } from './settings.js';
import type { ChannelLane, Workspace } from './workspace.js';

const MAX_RETRY_DELAY_MS = 30_000;

/** What `stats()` reports, kept as it happens. */
export interface Tally {
  sent: Record<string, number>;
  mergedEdits: number;
  rateLimited: number;
  retries: number;
  failed: number;
  inFlight: number;
  /** Jobs accepted and not settled yet, those in flight included. */
  outstanding: number;
}

/**
 * Gets queued jobs to Slack and settles them: channel pacing, the call itself, and what each
 * answer means (done; 429 → pause the method and go again first; transient → retry later;
 * permanent → reject, along with the work that would fail the same way).
 */
export class Delivery {
  readonly tally: Tally = {
    sent: {},
    mergedEdits: 0,
    rateLimited: 0,
    retries: 0,
    failed: 0,
    inFlight: 0,
    outstanding: 0,
  };
  private readonly scheduler: Scheduler;
  private closed = false;

  constructor(
    private readonly settings: OutboxSettings,
    private readonly logger: Logger,
    /** Called after each call settles (the outbox resolves `drain` from here). */
    private readonly afterCall: () => void,
  ) {
    this.scheduler = new Scheduler({
      now: settings.now,
      sleep: settings.sleep,
      admit: (job, now) => this.admit(job, now),
      send: (job) => this.send(job),
    });
  }

  enqueue(job: Job): void {
    this.scheduler.enqueue(job.workspace.queue(job.method, this.settings.now()), job);
  }

  /** Starts the lane's head on its way unless one already is. */
  advanceLane(workspace: Workspace, lane: ChannelLane): void {
    if (lane.busy) return;
    const head = lane.posts[0];
    if (head === undefined) {
      workspace.forgetIdleLane(lane, this.settings.now());
      return;
    }
    lane.busy = true;
    this.pace(head);
  }

  /** Rejects a job that never reaches Slack (closed outbox, a channel that failed). */
  reject(job: Job, waiters: Waiter<never>[], error: SlackOutboxError): void {
    job.state = 'held';
    this.tally.outstanding -= 1;
    this.rejectWaiters(waiters, error);
  }

  close(): void {
    this.closed = true;
    this.scheduler.stop();
  }

  /** Queues a lane's head once its channel has a token. */
  private pace(job: PostJob): void {
    const now = this.settings.now();
    const readyAt = job.lane.bucket.readyAt(now);
    if (readyAt <= now) {
      this.enqueue(job);
      return;
    }
    job.state = 'held';
    this.scheduler.at(readyAt, () => this.pace(job));
  }

  private admit(job: Job, now: number): boolean {
    if (job.kind !== 'post') return true;
    const readyAt = job.lane.bucket.readyAt(now);
    if (readyAt > now) {
      // Decided on the pump's `now`, so the job cannot come back within the same pump.
      job.state = 'held';
      this.scheduler.at(readyAt, () => this.pace(job));
      return false;
    }
    job.lane.bucket.take(now);
    return true;
  }

  private send(job: Job): void {
    job.state = 'sending';
    job.attempts += 1;
    this.tally.inFlight += 1;
    if (job.kind === 'edit') {
      const slot = job.workspace.slot(job.key);
      slot.pending = undefined;
      slot.inFlight = job;
    }
    callSlack(job)
      .then(
        (result) => this.succeeded(job, result),
        (error: unknown) => this.failed(job, error),
      )
      .catch((error: unknown) => this.logger.error({ err: error }, 'slack outbox: settling a call failed'))
      .finally(() => {
        this.tally.inFlight -= 1;
        this.scheduler.kick();
        this.afterCall();
      });
  }

  private succeeded(job: Job, result: webApi.WebAPICallResult): void {
    this.tally.sent[job.method] = (this.tally.sent[job.method] ?? 0) + 1;
    this.tally.outstanding -= 1;
    switch (job.kind) {
      case 'post': {
        this.endPost(job);
        const posted = postedMessage(result);
        if (posted !== undefined) job.waiter.resolve(posted);
        else {
          const details = { attempts: job.attempts, transient: false };
          this.rejectWaiters([job.waiter], outboxError(targetOf(job), 'invalid_response', details));
        }
        return;
      }
      case 'edit':
        this.endEdit(job);
        for (const waiter of job.waiters) waiter.resolve();
        return;
      case 'call':
        job.workspace.calls.delete(job);
        job.waiter.resolve(result);
        return;
    }
  }

  private failed(job: Job, error: unknown): void {
    const failure = classifyFailure(error);
    const now = this.settings.now();
    const { teamId } = job.workspace;
    if (this.closed) {
      this.giveUp(job, { kind: 'permanent', code: 'outbox_closed' }, error);
    } else if (failure.kind === 'rate_limited') {
      this.tally.rateLimited += 1;
      job.workspace.queue(job.method, now).pause(now + failure.retryAfterMs, now);
      if (job.kind === 'post') job.lane.bucket.empty(now);
      const { retryAfterMs } = failure;
      this.logger.warn({ teamId, method: job.method, retryAfterMs }, 'slack outbox: rate limited, pausing');
      this.retry(job, now);
    } else if (failure.kind === 'transient' && job.failures + 1 < this.settings.maxAttempts) {
      job.failures += 1;
      this.tally.retries += 1;
      const wait = Math.min(MAX_RETRY_DELAY_MS, this.settings.retryBaseMs * 2 ** (job.failures - 1));
      const { code, status } = failure;
      this.logger.info({ teamId, method: job.method, code, status, wait }, 'slack outbox: retrying');
      this.retry(job, now + wait);
    } else {
      this.giveUp(job, failure, error);
    }
  }

  /** Puts a job back at the front of its queue, to go at `at` or when its method may go again. */
  private retry(job: Job, at: number): void {
    job.state = 'held';
    let step: () => void;
    if (job.kind === 'edit') {
      const slot = job.workspace.slot(job.key);
      slot.inFlight = undefined;
      if (slot.pending !== undefined) {
        // The failed edit keeps its place; newer content queued meanwhile rides along with it.
        absorbEdit(job, slot.pending);
        this.tally.mergedEdits += 1;
        this.tally.outstanding -= 1;
      }
      slot.pending = job;
      step = () => {
        if (slot.pending === job && job.state === 'held') this.enqueue(job);
      };
    } else {
      step = job.kind === 'post' ? () => this.pace(job) : () => this.enqueue(job);
    }
    if (at <= this.settings.now()) step();
    else this.scheduler.at(at, step);
  }

  private giveUp(job: Job, failure: Failure, cause: unknown): void {
    const code = failure.kind === 'rate_limited' ? 'ratelimited' : failure.code;
    const status = failure.kind === 'rate_limited' ? undefined : failure.status;
    const error = outboxError(targetOf(job), code, {
      attempts: job.attempts,
      transient: failure.kind === 'transient',
      status,
      cause,
    });
    const { teamId } = job.workspace;
    const { attempts } = job;
    this.logger.warn({ teamId, method: job.method, code, status, attempts }, 'slack outbox: giving up');
    this.tally.outstanding -= 1;
    switch (job.kind) {
      case 'post':
        this.endPost(job, CHANNEL_ERRORS.has(code) ? error : undefined);
        this.rejectWaiters([job.waiter], error);
        return;
      case 'edit':
        this.endEdit(job, MESSAGE_ERRORS.has(code) ? error : undefined);
        this.rejectWaiters(job.waiters, error);
        return;
      case 'call':
        job.workspace.calls.delete(job);
        this.rejectWaiters([job.waiter], error);
        return;
    }
  }

  /** Takes a settled post off its lane; `channelError` fails every post waiting behind it too. */
  private endPost(job: PostJob, channelError?: SlackOutboxError): void {
    const { lane } = job;
    lane.posts = lane.posts.filter((post) => post !== job);
    if (channelError !== undefined) {
      const doomed = lane.posts;
      lane.posts = [];
      for (const post of doomed) this.reject(post, [post.waiter], channelError);
    }
    lane.busy = false;
    this.advanceLane(job.workspace, lane);
  }

  /** Clears a settled edit and lets the next edit of the message go (or fails it the same way). */
  private endEdit(job: EditJob, messageError?: SlackOutboxError): void {
    const { workspace, key } = job;
    const slot = workspace.slot(key);
    slot.inFlight = undefined;
    const { pending } = slot;
    if (pending === undefined) {
      workspace.edits.delete(key);
    } else if (messageError !== undefined) {
      workspace.edits.delete(key);
      this.reject(pending, pending.waiters, messageError);
    } else if (pending.state === 'held') {
      this.enqueue(pending);
    }
  }

  private rejectWaiters(waiters: Waiter<never>[], error: SlackOutboxError): void {
    this.tally.failed += waiters.length;
    for (const waiter of waiters) waiter.reject(error);
  }
}
