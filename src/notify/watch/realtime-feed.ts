import type { Deployment } from '../../config.js';
import type { Logger } from '../../log.js';
import { type RealtimeHub, RealtimeUnavailableError } from '../../realtime/hub.js';
import { mapLimit } from './concurrency.js';
import type { Creator, CreatorSessions } from './sessions.js';

/** A realtime channel the watcher wants to hear, and whose token authorises and resolves it. */
export interface ChannelWish {
  deployment: Deployment;
  /** Logical channel name: `private-user-267`, `repo-891`. */
  channel: string;
  creator: Creator;
}

export type FeedHandler = (wish: ChannelWish, event: string, data: unknown) => Promise<void>;

interface Listening {
  wish: ChannelWish;
  stop: () => void;
}

const wishKey = (wish: ChannelWish) => `${wish.deployment}:${wish.channel}`;

/**
 * Keeps the realtime subscriptions in line with what the held repositories need: `sync` subscribes
 * to new channels and leaves the ones nobody needs. A deployment without realtime (no `pusher` in
 * its GET /config) is asked again after `retryMs`; meanwhile polling alone watches it. After each
 * reconnect of a deployment's connection `onReconnected` runs, to poll what may have been missed.
 */
export class RealtimeFeed {
  readonly #listening = new Map<string, Listening>();
  readonly #wanted = new Map<string, ChannelWish>();
  readonly #unavailableUntil = new Map<Deployment, number>();
  readonly #reconnectStops = new Map<Deployment, () => void>();
  #syncing: Promise<void> | undefined;
  #closed = false;

  constructor(
    private readonly options: {
      hub: RealtimeHub;
      sessions: CreatorSessions;
      onEvent: FeedHandler;
      onReconnected: (deployment: Deployment) => void;
      retryMs: number;
      logger: Logger;
    },
  ) {}

  /** Channels listened to now. */
  get channels(): string[] {
    return [...this.#listening.keys()];
  }

  /** Brings the subscriptions in line with `wishes`; a sync still running makes this one a no-op. */
  sync(wishes: ChannelWish[]): Promise<void> {
    if (this.#syncing || this.#closed) return this.#syncing ?? Promise.resolve();
    const run = this.#sync(wishes).finally(() => {
      this.#syncing = undefined;
    });
    this.#syncing = run;
    return run;
  }

  async close(): Promise<void> {
    this.#closed = true;
    await this.#syncing?.catch(() => undefined);
    for (const listening of this.#listening.values()) listening.stop();
    this.#listening.clear();
    for (const stop of this.#reconnectStops.values()) stop();
    this.#reconnectStops.clear();
  }

  async #sync(wishes: ChannelWish[]): Promise<void> {
    this.#wanted.clear();
    for (const wish of wishes) if (!this.#wanted.has(wishKey(wish))) this.#wanted.set(wishKey(wish), wish);
    for (const [key, listening] of this.#listening) {
      const wish = this.#wanted.get(key);
      if (wish) listening.wish = wish;
      else {
        listening.stop();
        this.#listening.delete(key);
      }
    }
    const now = Date.now();
    const fresh = [...this.#wanted.entries()].filter(
      ([key, wish]) => !this.#listening.has(key) && (this.#unavailableUntil.get(wish.deployment) ?? 0) <= now,
    );
    await mapLimit(fresh, 8, ([key, wish]) => this.#listen(key, wish));
  }

  async #listen(key: string, wish: ChannelWish): Promise<void> {
    const { hub, sessions, logger } = this.options;
    if ((this.#unavailableUntil.get(wish.deployment) ?? 0) > Date.now()) return;
    const entry: Listening = { wish, stop: () => undefined };
    try {
      entry.stop = await hub.subscribe(
        wish.deployment,
        wish.channel,
        (event, data) => this.options.onEvent(entry.wish, event, data),
        () => sessions.open(entry.wish.creator),
      );
    } catch (error) {
      if (error instanceof RealtimeUnavailableError) {
        if (!this.#unavailableUntil.has(wish.deployment)) {
          logger.info(
            { deployment: wish.deployment },
            'no realtime service on this deployment; polling alone',
          );
        }
        this.#unavailableUntil.set(wish.deployment, Date.now() + this.options.retryMs);
      } else {
        logger.warn(
          { err: error, channel: key },
          'could not listen on a realtime channel; polling covers it',
        );
      }
      return;
    }
    if (this.#closed || !this.#wanted.has(key) || this.#listening.has(key)) {
      entry.stop();
      return;
    }
    this.#listening.set(key, entry);
    await this.#followReconnects(wish.deployment);
  }

  async #followReconnects(deployment: Deployment): Promise<void> {
    if (this.#reconnectStops.has(deployment)) return;
    this.#reconnectStops.set(deployment, () => undefined);
    try {
      const stop = await this.options.hub.onReconnected(deployment, () =>
        this.options.onReconnected(deployment),
      );
      if (this.#closed) stop();
      else this.#reconnectStops.set(deployment, stop);
    } catch (error) {
      this.#reconnectStops.delete(deployment);
      this.options.logger.warn({ err: error, deployment }, 'could not follow realtime reconnects');
    }
  }
}
