/** Public types of the fake Slack (see index.ts for how to start one). */

export type Json = Record<string, unknown>;

export interface FakeSlackOptions {
  /** Default 'xoxb-test-token'. */
  botToken?: string;
  /** App-level token for `apps.connections.open`. Default 'xapp-test-token'. */
  appToken?: string;
  /** Default 'T0TEST'. */
  teamId?: string;
  /** Default 'UBOT'. */
  botUserId?: string;
  /** Default false. When true, every method answers 429 over its tier limit (see rate-limits.ts). */
  enforceRateLimits?: boolean;
  /** With `enforceRateLimits`: calls per minute for some methods instead of their tier's (e.g.
   * `{ 'chat.update': 3000 }`, as Slack may grant a workspace), to match the app's budgets. */
  rateLimits?: Partial<Record<string, number>>;
  /**
   * Milliseconds clock behind trigger expiry, rate-limit windows, response_url lifetime and message
   * `ts`. Tests pass a controllable clock to cross a limit without sleeping. Default `Date.now`.
   */
  now?: () => number;
  /** How often the Socket Mode endpoint pings each connection. Default 5000 ms. */
  socketPingIntervalMs?: number;
}

/** One Web API call as the fake received and answered it. */
export interface SlackCall {
  method: string;
  /** Decoded arguments; JSON-valued ones (`blocks`, `view`, `attachments` ...) are parsed. */
  args: Json;
  /** Bearer token, or the `token` argument; undefined when none was sent. */
  token: string | undefined;
  /** Clock time the call arrived. */
  at: number;
  /** HTTP status answered: 200, or 429 when rate limited. */
  status: number;
  ok: boolean;
  error?: string;
  /** The JSON body answered. */
  response: Json;
  /** Set when the message `text` was over 40,000 characters and was stored cut. */
  truncated?: boolean;
}

/** A previous version of a message, kept when it was edited. */
export interface MessageVersion {
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  /** Clock time the version was replaced. */
  replacedAt: number;
  replacedBy: 'chat.update' | 'response_url';
}

/** Current state of a message the app posted with chat.postMessage (or in_channel via response_url). */
export interface StoredMessage {
  channel: string;
  ts: string;
  thread_ts?: string;
  text: string;
  blocks?: unknown[];
  attachments?: unknown[];
  metadata?: unknown;
  user: string;
  bot_id: string;
  /** True when `text` was longer than 40,000 characters and Slack kept only the start. */
  truncated: boolean;
  /** Earlier versions, oldest first; empty when never edited. */
  history: MessageVersion[];
}

/** A modal or Home tab as it currently stands. */
export interface StoredView {
  id: string;
  type: 'modal' | 'home';
  hash: string;
  root_view_id: string | null;
  previous_view_id: string | null;
  /** User whose Home tab this is (views.publish). */
  user_id?: string;
  external_id: string;
  /** The view payload last sent by the app. */
  view: Json;
}

/** One post the app made to a response_url served by the fake. */
export interface ResponseRecord {
  url: string;
  body: Json;
  /** HTTP status answered (200 when accepted). */
  status: number;
  ok: boolean;
  error?: string;
  at: number;
}

export type EnvelopeType = 'slash_commands' | 'interactive' | 'events_api';
export type DisconnectReason = 'refresh_requested' | 'warning' | 'link_disabled';

export interface EnvelopeAck {
  envelopeId: string;
  /** Wall-clock ms (Date.now, not the `now` option): the ack deadline is about real time. */
  sentAt: number;
  ackedAt: number;
  /** What the app put in the ack's `payload`, if anything. */
  payload?: unknown;
}

export interface FakeSocketMode {
  /** Open connections that completed the hello and are not draining after a disconnect message. */
  connections(): number;
  /** Resolves once at least one connection is open (at once when one already is). */
  waitForConnection(timeoutMs?: number): Promise<void>;
  /** Delivers an envelope to one connection (round robin) and resolves when the app acks it. */
  send(type: EnvelopeType, payload: object, options?: { timeoutMs?: number }): Promise<EnvelopeAck>;
  /** Sends a `disconnect` message to every connection, as Slack does before recycling a server. */
  disconnectAll(reason?: DisconnectReason): void;
}

/** A network fault before a Web API call reaches the fake (see `FakeSlack.interceptCalls`). */
export type CallInterception = { status: number } | { drop: true } | { hold: Promise<void> } | undefined;

export interface FakeSlack {
  /** Base URL of the fake Web API, e.g. http://127.0.0.1:1234/api/ — pass it as `slackApiUrl`. */
  apiUrl: string;
  /** Every Web API call in arrival order, including rejected and rate-limited ones. */
  calls: SlackCall[];
  callsTo(method: string): SlackCall[];
  /** Calls answered `ok: false` with HTTP 200 (validation failures, bad auth, injected failures). */
  rejected(): SlackCall[];
  /** Resolves with the first call (already made or still to come) to `method` matching `predicate`. */
  waitForCall(method: string, predicate?: (c: SlackCall) => boolean, timeoutMs?: number): Promise<SlackCall>;
  /**
   * A fresh response_url. With `channel` (and `messageTs`), in_channel responses become messages
   * of that channel and `replace_original` / `delete_original` act on that message.
   */
  responseUrl(context?: { channel?: string; messageTs?: string }): string;
  responses: ResponseRecord[];
  waitForResponse(predicate?: (r: ResponseRecord) => boolean, timeoutMs?: number): Promise<ResponseRecord>;
  /** Messages of a channel (thread replies included) in `ts` order, after edits and deletions. */
  messages(channel: string): StoredMessage[];
  /** Every view opened, pushed or published, in creation order, with its current content. */
  views(): StoredView[];
  /** The Home tab last published for a user. */
  homeTab(userId: string): StoredView | undefined;
  /** A trigger_id as Slack puts in a command or interaction; it opens a view within 3 s, once. */
  issueTriggerId(options?: { viewId?: string }): string;
  /** Answers 429 with Retry-After for `method` during the next `forMs` ms (with or without enforcement). */
  rateLimit(method: string, forMs: number, retryAfterSec?: number): void;
  /** Number of 429 answers given, to one method or in all. */
  rateLimitedCount(method?: string): number;
  /** The next `times` calls to `method` answer `{ ok: false, error }`. */
  failNext(method: string, error: string, times?: number): void;
  /**
   * Decides, for each Web API call from now on, what the network does before the fake answers:
   * nothing (undefined), an HTTP error status, a dropped connection, or a wait. `undefined` removes it.
   */
  interceptCalls(intercept: ((method: string) => CallInterception) | undefined): void;
  /** Overrides fields users.info returns for a user (e.g. `{ profile: { email } }`). */
  setUser(userId: string, fields: Json): void;
  /** Overrides a channel's facts: `is_member: false` makes posting answer `not_in_channel`. */
  setChannel(channelId: string, fields: Json): void;
  /** Forgets calls, responses, messages, views, triggers and rate-limit state. */
  reset(): void;
  socketMode: FakeSocketMode;
  close(): Promise<void>;
}
