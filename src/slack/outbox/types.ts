import type { Logger } from '../../log.js';
import type { Block } from '../reply.js';
import type { SlackCaller } from './web-api.js';

export type Priority = 'high' | 'low';

export interface OutboxOptions {
  /**
   * The Web API client for a workspace (one workspace: always the same client): the app gives
   * `createSlackJsonCaller`'s. A `WebClient` fits too, created with retries disabled
   * (`retryConfig: { retries: 0 }`, `rejectRateLimitedCalls: true`) so the outbox alone decides
   * about retries.
   */
  clientFor: (teamId: string) => SlackCaller;
  logger: Logger;
  /** Injectable clock (ms). Default `Date.now`. */
  now?: () => number;
  /**
   * Waits `ms` on the same clock as `now`; must settle (resolve or reject) when `signal` aborts,
   * which is how the outbox leaves no timer behind. Default: a Node timer.
   */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /**
   * Per-method budgets per workspace per minute; defaults from Slack's tiers (budgets.ts),
   * overridable (a workspace may be granted more). chat.postMessage has none unless given here.
   */
  budgets?: Partial<Record<string, number>>;
  /** chat.postMessage pacing per channel: one post per this many ms after a burst. Default 1050. */
  channelIntervalMs?: number;
  /** Posts a quiet channel may take at once. Default 3. */
  channelBurst?: number;
  /** Posts waiting per channel before `post` rejects with `queue_full`. Default 100. */
  maxQueuedPostsPerChannel?: number;
  /** Other calls (`call`) waiting per method and workspace before rejecting. Default 1000. */
  maxQueuedCallsPerMethod?: number;
  /** Tries for a request meeting transient errors (5xx, network), the first included. Default 4. */
  maxAttempts?: number;
  /** Wait before the first retry of a transient error; doubles each time (at most 30 s). Default 1000. */
  retryBaseMs?: number;
}

export interface OutgoingMessage {
  teamId: string;
  /** A channel id, or a user id for the app's direct message with that user. */
  channel: string;
  text: string;
  blocks?: Block[];
  /** Posts a reply in this message's thread. */
  threadTs?: string;
  /** Default 'high'. Only matters when chat.postMessage has a workspace budget. */
  priority?: Priority;
}

export interface MessageEdit {
  teamId: string;
  channel: string;
  ts: string;
  text: string;
  /** Left out: the message keeps its blocks (chat.update semantics); `[]` removes them. */
  blocks?: Block[];
  /** The last state of the message: never dropped, never replaced by a non-final edit while queued. */
  final?: boolean;
  /** Default 'low', or 'high' when `final`. */
  priority?: Priority;
}

export interface PostedMessage {
  channel: string;
  ts: string;
}

/** Any other Web API method (views.publish, chat.postEphemeral, conversations.open …). */
export interface OutgoingCall {
  teamId: string;
  method: string;
  args: Record<string, unknown>;
  /** Default 'high'. */
  priority?: Priority;
}

export interface OutboxStats {
  /** Calls Slack accepted, per method. */
  sent: Record<string, number>;
  /** Edits folded into a queued edit of the same message instead of being sent. */
  mergedEdits: number;
  /** 429 answers met. */
  rateLimited: number;
  /** Calls sent again after a transient error (5xx, network). */
  retries: number;
  /** Requests whose promise was rejected. */
  failed: number;
  /** Requests waiting (not in flight): posts, pending edits (one per message at most), calls. */
  queued: number;
  inFlight: number;
  /** Age of the oldest waiting request in ms, 0 when none waits. */
  oldestQueuedMs: number;
}
