import type { Logger } from '../log.js';
import { Backoff } from './backoff.js';
import {
  type Channel,
  type ChannelAuthorizationCallback,
  forgetClient,
  Pusher,
  type PusherClient,
} from './pusher-js.js';
import { type PusherSettings, toPusherOptions } from './settings.js';

export { type PusherSettings, pusherSettingsSchema } from './settings.js';

export type EventHandler = (event: string, data: unknown) => void | Promise<void>;

export interface RealtimeTiming {
  /** While the connection is down, a fresh attempt is forced after this delay, doubling each time… */
  minReconnectDelayMs: number;
  /** …up to this. pusher-js alone waits 15 s to 60 s between attempts when a server refuses. */
  maxReconnectDelayMs: number;
  /** After a reconnect, `onReconnected` waits at most this long for channels to be subscribed again. */
  resubscribeTimeoutMs: number;
  /** pusher-js: ping after this much silence (the server's own, usually lower, value wins). */
  activityTimeoutMs: number;
  /** pusher-js: reconnect when a ping gets no answer within this. */
  pongTimeoutMs: number;
  /** pusher-js: report the state `unavailable` after trying this long. */
  unavailableTimeoutMs: number;
}

export const DEFAULT_TIMING: RealtimeTiming = {
  minReconnectDelayMs: 2_000,
  maxReconnectDelayMs: 60_000,
  resubscribeTimeoutMs: 10_000,
  activityTimeoutMs: 120_000,
  pongTimeoutMs: 30_000,
  unavailableTimeoutMs: 10_000,
};

export interface RealtimeConnectionOptions {
  settings: PusherSettings;
  /** Authorise private channels: called with socket id and channel name, returns the auth string (the
   * CI API's POST /pusher/auth does this with a user's token). Rejecting = subscription fails for that
   * channel only. */
  authorize: (socketId: string, channel: string) => Promise<string>;
  logger: Logger;
  /** Called after the connection comes back (not on the first connect), once per reconnect, when
   * every channel has been subscribed again (or failed to), so callers can fetch over REST what
   * they missed. */
  onReconnected?: () => void;
  /** Called when the server or the authorizer refuses a channel (the full channel name). */
  onSubscriptionError?: (channel: string, error: unknown) => void;
  /** Production defaults in DEFAULT_TIMING; tests shorten them. */
  timing?: Partial<RealtimeTiming>;
}

interface ChannelEntry {
  channel: Channel;
  /** One object per `subscribe` call, so the same function subscribed twice counts twice. */
  listeners: Set<{ handler: EventHandler }>;
  onEvent: (event: string, data: unknown) => void;
  onSucceeded: () => void;
  onError: (error: unknown) => void;
}

/** Every event reaches the channel's `bind_global` listener; nothing else is owed it. */
function ignoreEvent(): void {}

/** pusher-js parses `data` when it is a JSON string; a string left over was encoded twice or is not JSON. */
function decodeData(data: unknown): unknown {
  if (typeof data !== 'string') return data;
  try {
    return JSON.parse(data);
  } catch {
    return data;
  }
}

/** The useful part of what pusher-js emits as `error`: its shapes nest (a WebSocketError wrapping a
 * PusherError with the close code, a MessageParseError wrapping a SyntaxError), so this flattens. */
function describeError(error: unknown): Record<string, unknown> {
  if (error instanceof Error) return { message: error.message };
  if (typeof error !== 'object' || error === null) return { message: String(error) };
  const { type, data, error: inner, status } = error as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  if (typeof type === 'string') out.type = type;
  if (typeof data === 'object' && data !== null) {
    const { code, message } = data as Record<string, unknown>;
    if (typeof code === 'number') out.code = code;
    if (typeof message === 'string') out.message = message;
  } else if (typeof data === 'string') {
    out.frame = data.slice(0, 200);
  }
  if (typeof status === 'number') out.status = status;
  if (typeof inner === 'string') out.message ??= inner;
  else if (inner !== undefined && out.code === undefined && out.message === undefined) {
    return { ...out, ...describeError(inner) };
  }
  return out;
}

/**
 * One realtime connection to a CI deployment's Pusher service. Logical channels share pusher-js
 * subscriptions; pusher-js reconnects and resubscribes, and a watchdog here forces fresh attempts
 * with backoff while the service is down. Nothing here throws into the process: errors are logged.
 */
export class RealtimeConnection {
  readonly #options: RealtimeConnectionOptions;
  readonly #timing: RealtimeTiming;
  readonly #log: Logger;
  readonly #pusher: PusherClient;
  readonly #channels = new Map<string, ChannelEntry>();
  readonly #backoff: Backoff;
  readonly #connectionListeners: Array<[string, (data: unknown) => void]>;
  #closed = false;
  #everConnected = false;
  #restarting = false;
  #lastError: Record<string, unknown> | undefined;
  #retryTimer: NodeJS.Timeout | undefined;
  #resubscribeTimer: NodeJS.Timeout | undefined;

  constructor(options: RealtimeConnectionOptions) {
    this.#options = options;
    this.#timing = { ...DEFAULT_TIMING, ...options.timing };
    this.#log = options.logger.child({ component: 'realtime' });
    this.#backoff = new Backoff(this.#timing.minReconnectDelayMs, this.#timing.maxReconnectDelayMs);
    const clientOptions = toPusherOptions(options.settings, this.#timing, (params, callback) =>
      this.#authorizeChannel(params.socketId, params.channelName, callback),
    );
    // pusher-js connects from its constructor; the listeners below are bound right after, before any
    // socket can open. They run after pusher-js's own listeners for the same event (it resubscribes
    // on `connected` and resets channels on `connecting`), which the code below relies on.
    this.#pusher = new Pusher(options.settings.key, clientOptions);
    this.#connectionListeners = [
      ['state_change', (change) => this.#log.debug({ change }, 'Realtime connection state changed')],
      ['connected', () => this.#onConnected()],
      ['connecting', () => this.#onDown()],
      ['unavailable', () => this.#onDown()],
      ['disconnected', () => this.#onDisconnected()],
      ['failed', () => this.#log.error('Realtime connection is not supported here')],
      ['error', (error) => this.#onError(error)],
    ];
    for (const [event, listener] of this.#connectionListeners) this.#pusher.connection.bind(event, listener);
  }

  /** pusher-js connection state: initialized, connecting, connected, unavailable, failed, disconnected. */
  get state(): string {
    return this.#pusher.connection.state;
  }

  channelName(logical: string): string {
    if (!this.#options.settings.private || logical.startsWith('private-')) return logical;
    return `private-${logical}`;
  }

  /** Logical name (e.g. 'job-123'); the private- prefix is added when settings.private is true.
   * Returns an unsubscribe function. Several listeners on one channel share one subscription; the
   * channel is unsubscribed when the last listener goes. */
  subscribe(channel: string, handler: EventHandler): () => void {
    if (this.#closed) {
      this.#log.warn({ channel }, 'Realtime subscribe after close ignored');
      return () => {};
    }
    const name = this.channelName(channel);
    const entry = this.#channels.get(name) ?? this.#openChannel(name);
    const listener = { handler };
    entry.listeners.add(listener);
    return () => {
      if (!entry.listeners.delete(listener) || entry.listeners.size > 0) return;
      if (this.#channels.get(name) === entry) this.#closeChannel(name, entry);
    };
  }

  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#resubscribeTimer);
    for (const entry of this.#channels.values()) this.#unbindChannel(entry);
    this.#channels.clear();
    this.#pusher.disconnect();
    for (const [event, listener] of this.#connectionListeners)
      this.#pusher.connection.unbind(event, listener);
    forgetClient(this.#pusher);
  }

  #authorizeChannel(socketId: string, channel: string, callback: ChannelAuthorizationCallback): void {
    // An answer for a socket that has since been replaced is dropped: pusher-js asks again for
    // every channel after a reconnect, and a stale signature would only be refused.
    const current = () => !this.#closed && this.#pusher.connection.socket_id === socketId;
    Promise.resolve()
      .then(() => this.#options.authorize(socketId, channel))
      .then(
        (auth) => {
          if (current()) callback(null, { auth });
        },
        (error: unknown) => {
          if (current()) callback(error instanceof Error ? error : new Error(String(error)), null);
        },
      )
      .catch((error: unknown) =>
        this.#log.error({ err: error, channel }, 'Realtime channel authorisation failed'),
      );
  }

  #openChannel(name: string): ChannelEntry {
    const channel = this.#pusher.subscribe(name);
    const entry: ChannelEntry = {
      channel,
      listeners: new Set(),
      onEvent: (event, data) => this.#dispatch(name, entry, event, data),
      onSucceeded: () => {
        this.#log.debug({ channel: name }, 'Realtime channel subscribed');
        this.#checkResubscribed();
      },
      onError: (error) => {
        this.#log.warn(
          { channel: name, error: describeError(error) },
          'Realtime channel subscription failed',
        );
        this.#checkResubscribed();
        this.#callBack('onSubscriptionError', () => this.#options.onSubscriptionError?.(name, error));
      },
    };
    channel.bind_global(entry.onEvent);
    // Events have no callbacks by name here, so pusher-js would pass each to this fall-through,
    // which builds a debug line ("No callbacks on …") whether or not anything logs it.
    channel.failThrough = ignoreEvent;
    channel.bind('pusher:subscription_succeeded', entry.onSucceeded);
    channel.bind('pusher:subscription_error', entry.onError);
    this.#channels.set(name, entry);
    return entry;
  }

  #closeChannel(name: string, entry: ChannelEntry): void {
    this.#unbindChannel(entry);
    this.#channels.delete(name);
    this.#pusher.unsubscribe(name);
  }

  #unbindChannel(entry: ChannelEntry): void {
    entry.channel.unbind_global(entry.onEvent);
    entry.channel.unbind('pusher:subscription_succeeded', entry.onSucceeded);
    entry.channel.unbind('pusher:subscription_error', entry.onError);
  }

  #dispatch(channel: string, entry: ChannelEntry, event: string, data: unknown): void {
    if (event.startsWith('pusher:') || event.startsWith('pusher_internal:')) return;
    const payload = decodeData(data);
    for (const listener of [...entry.listeners]) {
      const failed = (error: unknown) =>
        this.#log.error({ err: error, channel, event }, 'Realtime event handler failed');
      try {
        const result: unknown = listener.handler(event, payload);
        if (result instanceof Promise) result.catch(failed);
      } catch (error) {
        failed(error);
      }
    }
  }

  /**
   * pusher-js keeps a channel whose subscription was cancelled while pending, and resubscribes it
   * on the next connect, after which nothing ever unsubscribes it. Channels nobody listens to are
   * dropped here, once pusher-js has reset them (so `unsubscribe` removes them outright).
   */
  #pruneUnwantedChannels(): void {
    for (const channel of this.#pusher.allChannels()) {
      if (!this.#channels.has(channel.name)) this.#pusher.unsubscribe(channel.name);
    }
  }

  #onConnected(): void {
    if (this.#closed) return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#backoff.reset();
    this.#lastError = undefined;
    this.#pruneUnwantedChannels();
    this.#log.info(
      { socketId: this.#pusher.connection.socket_id, channels: this.#channels.size },
      this.#everConnected ? 'Realtime connection restored' : 'Realtime connection established',
    );
    if (this.#everConnected) this.#awaitResubscription();
    this.#everConnected = true;
  }

  /** Connecting or unavailable: make sure a fresh attempt is forced if this lasts too long. */
  #onDown(): void {
    if (this.#closed) return;
    clearTimeout(this.#resubscribeTimer);
    this.#resubscribeTimer = undefined;
    this.#pruneUnwantedChannels();
    if (this.#retryTimer !== undefined) return;
    const delay = this.#backoff.next();
    this.#retryTimer = setTimeout(() => this.#forceReconnect(delay), delay);
  }

  #forceReconnect(waitedMs: number): void {
    this.#retryTimer = undefined;
    if (this.#closed || this.state === 'connected') return;
    this.#log.warn({ waitedMs, lastError: this.#lastError }, 'Realtime connection still down; trying again');
    this.#restarting = true;
    try {
      this.#pusher.disconnect();
      this.#pusher.connect();
    } finally {
      this.#restarting = false;
    }
  }

  #onDisconnected(): void {
    if (this.#closed || this.#restarting) return;
    // pusher-js disconnects by itself only when the server refuses the connection for good
    // (close codes 4000-4099, such as an unknown app key); the protocol says not to retry.
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    this.#log.error(
      { lastError: this.#lastError },
      'Realtime service refused the connection; not reconnecting',
    );
  }

  #onError(error: unknown): void {
    if (this.#closed) return;
    this.#lastError = describeError(error);
    this.#log.warn({ error: this.#lastError }, 'Realtime connection error');
  }

  /** After a reconnect, call onReconnected once every channel has settled (or after a timeout). */
  #awaitResubscription(): void {
    clearTimeout(this.#resubscribeTimer);
    this.#resubscribeTimer = setTimeout(() => this.#reconnected(), this.#timing.resubscribeTimeoutMs);
    this.#checkResubscribed();
  }

  #checkResubscribed(): void {
    if (this.#resubscribeTimer === undefined) return;
    const pending = [...this.#channels.values()].some((entry) => entry.channel.subscriptionPending);
    if (!pending) this.#reconnected();
  }

  #reconnected(): void {
    clearTimeout(this.#resubscribeTimer);
    this.#resubscribeTimer = undefined;
    if (!this.#closed) this.#callBack('onReconnected', () => this.#options.onReconnected?.());
  }

  /** Callbacks run inside pusher-js's socket handlers, where a throw would escape to the process. */
  #callBack(name: string, call: () => void): void {
    try {
      call();
    } catch (error) {
      this.#log.error({ err: error, callback: name }, 'Realtime callback failed');
    }
  }
}
