/**
 * The one way the app posts to Slack on its own (notifications, live log tails, direct
 * messages): paced per channel, held under per-method budgets per workspace, retried on 429 and
 * transient errors, with queued edits of one message merged. See README.md for the model.
 */
import type { webApi } from '@slack/bolt';
import { POST_MESSAGE, UPDATE } from './budgets.js';
import { Delivery } from './delivery.js';
import { type ErrorTarget, outboxError, type SlackOutboxError } from './errors.js';
import { absorbEdit, type CallJob, type EditJob, type Job, type PostJob, rankOf, targetOf } from './jobs.js';
import { type OutboxSettings, resolveSettings } from './settings.js';
import type {
  MessageEdit,
  OutboxOptions,
  OutboxStats,
  OutgoingCall,
  OutgoingMessage,
  PostedMessage,
  Priority,
} from './types.js';
import { Workspace } from './workspace.js';

export { DEFAULT_BUDGETS, FALLBACK_BUDGET } from './budgets.js';
export { type LocalErrorCode, SlackOutboxError, type SlackOutboxErrorData } from './errors.js';
export type * from './types.js';
export { createSlackJsonCaller, type SlackCaller } from './web-api.js';

const DEFAULT_DRAIN_TIMEOUT_MS = 30_000;

export class SlackOutbox {
  private readonly settings: OutboxSettings;
  private readonly clientFor: OutboxOptions['clientFor'];
  private readonly delivery: Delivery;
  private readonly workspaces = new Map<string, Workspace>();
  private readonly drainWaiters = new Set<(drained: boolean) => void>();
  private seq = 0;
  private closed = false;

  constructor(options: OutboxOptions) {
    this.settings = resolveSettings(options);
    this.clientFor = options.clientFor;
    this.delivery = new Delivery(this.settings, options.logger, () => {
      if (this.isIdle()) this.finishDrains(true);
    });
  }

  /** A new message (or thread reply). Resolves with its ts once Slack accepted it. */
  post(message: OutgoingMessage): Promise<PostedMessage> {
    return new Promise((resolve, reject) => {
      const { teamId, channel } = message;
      const target = { teamId, method: POST_MESSAGE, channel };
      if (this.closed) return reject(closedError(target));
      const now = this.settings.now();
      const workspace = this.workspace(teamId);
      const lane = workspace.lane(channel, now);
      if (lane.posts.length >= this.settings.maxQueuedPostsPerChannel) {
        return reject(this.refuse(target, `${lane.posts.length} posts already wait for ${channel}`));
      }
      const job: PostJob = {
        ...this.jobBase(workspace, POST_MESSAGE, message.priority ?? 'high', now),
        kind: 'post',
        lane,
        channel,
        text: message.text,
        blocks: message.blocks,
        threadTs: message.threadTs,
        waiter: { resolve, reject },
      };
      lane.posts.push(job);
      this.delivery.tally.outstanding += 1;
      this.delivery.advanceLane(workspace, lane);
    });
  }

  /**
   * Edits a message. While an edit of the same (channel, ts) waits, a newer edit replaces it (every
   * caller's promise resolves when the merged edit is sent). A `final` edit is never dropped, nor
   * replaced by a non-final one while it waits or is on the wire.
   */
  update(edit: MessageEdit): Promise<void> {
    return new Promise((resolve, reject) => {
      const { teamId, channel, ts } = edit;
      if (this.closed) return reject(closedError({ teamId, method: UPDATE, channel, ts }));
      const workspace = this.workspace(teamId);
      const final = edit.final === true;
      const incoming: EditJob = {
        ...this.jobBase(workspace, UPDATE, edit.priority ?? (final ? 'high' : 'low'), this.settings.now()),
        kind: 'edit',
        key: `${channel}\n${ts}`,
        channel,
        ts,
        text: edit.text,
        blocks: edit.blocks,
        final,
        waiters: [{ resolve, reject }],
      };
      const slot = workspace.slot(incoming.key);
      const { pending, inFlight } = slot;
      const { tally } = this.delivery;
      if (pending !== undefined) {
        tally.mergedEdits += 1;
        const raised = absorbEdit(pending, incoming);
        if (raised && pending.state === 'queued') this.delivery.enqueue(pending);
      } else if (inFlight?.final === true && !final) {
        // A tick racing the final state: the final wins; this caller hears when it lands.
        tally.mergedEdits += 1;
        inFlight.waiters.push(...incoming.waiters);
      } else {
        slot.pending = incoming;
        tally.outstanding += 1;
        if (inFlight === undefined) this.delivery.enqueue(incoming);
      }
    });
  }

  /**
   * Any other Web API method (views.publish, chat.postEphemeral, conversations.open, chat.delete …),
   * under its budget, with the same 429 and retry handling. Posts and edits go through `post` and
   * `update`, which pace and merge them.
   */
  call(request: OutgoingCall): Promise<webApi.WebAPICallResult> {
    return new Promise((resolve, reject) => {
      const { teamId, method } = request;
      if (method === POST_MESSAGE || method === UPDATE) {
        return reject(
          new TypeError(`use SlackOutbox.${method === UPDATE ? 'update' : 'post'} for ${method}`),
        );
      }
      if (this.closed) return reject(closedError({ teamId, method }));
      const workspace = this.workspace(teamId);
      let waiting = 0;
      for (const queued of workspace.calls) if (queued.method === method) waiting += 1;
      if (waiting >= this.settings.maxQueuedCallsPerMethod) {
        return reject(this.refuse({ teamId, method }, `${waiting} calls to ${method} already wait`));
      }
      const job: CallJob = {
        ...this.jobBase(workspace, method, request.priority ?? 'high', this.settings.now()),
        kind: 'call',
        args: request.args,
        waiter: { resolve, reject },
      };
      workspace.calls.add(job);
      this.delivery.tally.outstanding += 1;
      this.delivery.enqueue(job);
    });
  }

  /** Counters for metrics and tests. */
  stats(): OutboxStats {
    const now = this.settings.now();
    let queued = 0;
    let oldest = now;
    const count = (job: Job) => {
      if (job.state === 'sending') return;
      queued += 1;
      oldest = Math.min(oldest, job.queuedAt);
    };
    for (const workspace of this.workspaces.values()) {
      for (const lane of workspace.lanes.values()) lane.posts.forEach(count);
      for (const slot of workspace.edits.values()) if (slot.pending !== undefined) count(slot.pending);
      workspace.calls.forEach(count);
    }
    const { sent, mergedEdits, rateLimited, retries, failed, inFlight } = this.delivery.tally;
    return {
      sent: { ...sent },
      mergedEdits,
      rateLimited,
      retries,
      failed,
      queued,
      inFlight,
      oldestQueuedMs: now - oldest,
    };
  }

  /**
   * Resolves once nothing waits and nothing is in flight: true, or false when `timeoutMs` passed
   * first (or the outbox was closed with calls still on the wire).
   */
  drain(timeoutMs = DEFAULT_DRAIN_TIMEOUT_MS): Promise<boolean> {
    if (this.isIdle()) return Promise.resolve(true);
    if (this.closed) return Promise.resolve(false);
    return new Promise((resolve) => {
      const controller = new AbortController();
      const finish = (drained: boolean) => {
        if (!this.drainWaiters.delete(finish)) return;
        controller.abort();
        resolve(drained);
      };
      this.drainWaiters.add(finish);
      const timedOut = () => finish(false);
      this.settings.sleep(timeoutMs, controller.signal).then(timedOut, timedOut);
    });
  }

  /**
   * Stops: every waiting request is rejected with `outbox_closed` and no timer is left. Calls
   * already on the wire finish and settle their promises; nothing is retried after close.
   */
  close(): void {
    if (this.closed) return;
    this.closed = true;
    this.delivery.close();
    const reject = (job: Job, waiters: Parameters<Delivery['reject']>[1]) =>
      this.delivery.reject(job, waiters, closedError(targetOf(job)));
    for (const workspace of this.workspaces.values()) {
      for (const lane of workspace.lanes.values()) {
        const waiting = lane.posts.filter((post) => post.state !== 'sending');
        lane.posts = lane.posts.filter((post) => post.state === 'sending');
        for (const post of waiting) reject(post, [post.waiter]);
      }
      for (const slot of workspace.edits.values()) {
        const { pending } = slot;
        slot.pending = undefined;
        if (pending !== undefined) reject(pending, pending.waiters);
      }
      for (const call of workspace.calls) {
        if (call.state === 'sending') continue;
        workspace.calls.delete(call);
        reject(call, [call.waiter]);
      }
    }
    this.finishDrains(this.isIdle());
  }

  private jobBase(workspace: Workspace, method: string, priority: Priority, now: number) {
    this.seq += 1;
    return {
      workspace,
      method,
      rank: rankOf(priority),
      seq: this.seq,
      ticket: 0,
      state: 'held' as const,
      queuedAt: now,
      attempts: 0,
      failures: 0,
    };
  }

  private workspace(teamId: string): Workspace {
    let workspace = this.workspaces.get(teamId);
    if (workspace === undefined) {
      workspace = new Workspace(teamId, this.clientFor, this.settings);
      this.workspaces.set(teamId, workspace);
    }
    return workspace;
  }

  /** A request refused before it was queued (a full queue). */
  private refuse(target: ErrorTarget, message: string): SlackOutboxError {
    this.delivery.tally.failed += 1;
    return outboxError(target, 'queue_full', { attempts: 0, transient: false, message });
  }

  private finishDrains(drained: boolean): void {
    for (const finish of [...this.drainWaiters]) finish(drained);
  }

  private isIdle(): boolean {
    const { outstanding, inFlight } = this.delivery.tally;
    return outstanding === 0 && inFlight === 0;
  }
}

function closedError(target: ErrorTarget): SlackOutboxError {
  return outboxError(target, 'outbox_closed', { attempts: 0, transient: false });
}
