import { authorizePusherChannels } from '../ci/auth.js';
import type { CiClient, CiSession } from '../ci/client.js';
import { getServiceConfig } from '../ci/root.js';
import type { Deployment } from '../config.js';
import type { Logger } from '../log.js';
import { type EventHandler, RealtimeConnection, type RealtimeTiming } from './pusher-connection.js';
import { pusherSettingsSchema } from './settings.js';

/** Gives the CI session of a user entitled to read a private channel (their own token). */
export type Authority = () => Promise<CiSession>;

export class RealtimeUnavailableError extends Error {
  override readonly name = 'RealtimeUnavailableError';
  readonly code = 'realtime_unavailable';
}

interface Link {
  connection: RealtimeConnection;
  reconnectListeners: Set<() => void>;
  /** Channels the server or every authority refused; a new authority gets them another try. */
  refused: Set<string>;
}

interface Listening {
  handlers: Set<EventHandler>;
  stop: () => void;
}

/**
 * One realtime connection per CI deployment, shared by everything that listens (log followers,
 * the build watcher). Its settings come from the deployment's GET /config. Private channels are
 * authorised through the CI API's POST /pusher/auth with the token of a user who registered as an
 * authority for that channel; several authorities are tried in turn.
 */
export class RealtimeHub {
  readonly #links = new Map<Deployment, Promise<Link>>();
  readonly #authorities = new Map<string, Set<Authority>>();
  /** One connection-level subscription per channel, fanned out to every handler. */
  readonly #listening = new Map<string, Listening>();

  constructor(private readonly options: { ci: CiClient; logger: Logger; timing?: Partial<RealtimeTiming> }) {}

  /**
   * Listens on a logical channel (`job-1`, `repo-2`, `private-user-3`) of a deployment. The
   * `private-` prefix is added when the deployment's realtime settings say so. Returns the function
   * that stops listening. Rejects with RealtimeUnavailableError when the deployment has no realtime.
   */
  async subscribe(
    deployment: Deployment,
    channel: string,
    handler: EventHandler,
    authority?: Authority,
  ): Promise<() => void> {
    const link = await this.#link(deployment);
    const name = link.connection.channelName(channel);
    const k = key(deployment, name);
    if (authority) this.#addAuthority(k, authority);

    let listening = this.#listening.get(k);
    if (!listening) {
      const handlers = new Set<EventHandler>([handler]);
      listening = { handlers, stop: link.connection.subscribe(channel, fanOut(handlers)) };
      this.#listening.set(k, listening);
    } else {
      listening.handlers.add(handler);
      if (authority && link.refused.delete(name)) {
        // Every authority so far was refused: subscribe again so the new one gets its turn.
        listening.stop();
        listening.stop = link.connection.subscribe(channel, fanOut(listening.handlers));
      }
    }

    const current = listening;
    return () => {
      current.handlers.delete(handler);
      if (authority) this.#authorities.get(k)?.delete(authority);
      if (current.handlers.size === 0 && this.#listening.get(k) === current) {
        current.stop();
        this.#listening.delete(k);
        link.refused.delete(name);
      }
    };
  }

  /** Called after each reconnect of the deployment's connection (fetch what was missed over REST). */
  async onReconnected(deployment: Deployment, listener: () => void): Promise<() => void> {
    const link = await this.#link(deployment);
    link.reconnectListeners.add(listener);
    return () => link.reconnectListeners.delete(listener);
  }

  async close(): Promise<void> {
    const links = await Promise.allSettled(this.#links.values());
    for (const result of links) if (result.status === 'fulfilled') result.value.connection.close();
    this.#links.clear();
    this.#listening.clear();
  }

  #addAuthority(k: string, authority: Authority): void {
    const set = this.#authorities.get(k) ?? new Set<Authority>();
    set.add(authority);
    this.#authorities.set(k, set);
  }

  #link(deployment: Deployment): Promise<Link> {
    let link = this.#links.get(deployment);
    if (!link) {
      link = this.#connect(deployment);
      this.#links.set(deployment, link);
      // A failed start is not cached: the next subscriber tries again.
      link.catch(() => this.#links.delete(deployment));
    }
    return link;
  }

  async #connect(deployment: Deployment): Promise<Link> {
    const config = await getServiceConfig(this.options.ci.session(deployment));
    const parsed = pusherSettingsSchema.safeParse(config.pusher);
    if (!parsed.success) {
      throw new RealtimeUnavailableError(`The ${deployment} deployment announces no realtime service`);
    }
    const reconnectListeners = new Set<() => void>();
    const refused = new Set<string>();
    const logger = this.options.logger.child({ component: 'realtime', deployment });
    const connection = new RealtimeConnection({
      settings: parsed.data,
      logger,
      ...(this.options.timing ? { timing: this.options.timing } : {}),
      authorize: (socketId, channel) => this.#authorize(deployment, socketId, channel),
      onReconnected: () => {
        for (const listener of reconnectListeners) listener();
      },
      onSubscriptionError: (channel) => {
        refused.add(channel);
        logger.warn({ channel }, 'realtime channel refused');
      },
    });
    return { connection, reconnectListeners, refused };
  }

  async #authorize(deployment: Deployment, socketId: string, channel: string): Promise<string> {
    // The live set is read on every turn: an authority registered while another is being tried counts too.
    const tried = new Set<Authority>();
    for (;;) {
      const next = [...(this.#authorities.get(key(deployment, channel)) ?? [])].find((a) => !tried.has(a));
      if (!next) throw new Error(`No linked account may read ${channel}`);
      tried.add(next);
      try {
        const auth = (await authorizePusherChannels(await next(), socketId, [channel]))[channel];
        if (auth) return auth;
      } catch (error) {
        this.options.logger.debug({ err: error, channel }, 'an authority could not authorise a channel');
      }
    }
  }
}

function fanOut(handlers: Set<EventHandler>): EventHandler {
  return (event, data) => {
    for (const handler of handlers) void handler(event, data);
  };
}

function key(deployment: Deployment, channel: string): string {
  return `${deployment}:${channel}`;
}
