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
    if (authority) this.#addAuthority(deployment, name, authority);
    const unsubscribe = link.connection.subscribe(channel, handler);
    return () => {
      unsubscribe();
      if (authority) this.#authorities.get(key(deployment, name))?.delete(authority);
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
  }

  #addAuthority(deployment: Deployment, channel: string, authority: Authority): void {
    const k = key(deployment, channel);
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
    const logger = this.options.logger.child({ component: 'realtime', deployment });
    const connection = new RealtimeConnection({
      settings: parsed.data,
      logger,
      ...(this.options.timing ? { timing: this.options.timing } : {}),
      authorize: (socketId, channel) => this.#authorize(deployment, socketId, channel),
      onReconnected: () => {
        for (const listener of reconnectListeners) listener();
      },
      onSubscriptionError: (channel) => logger.warn({ channel }, 'realtime channel refused'),
    });
    return { connection, reconnectListeners };
  }

  async #authorize(deployment: Deployment, socketId: string, channel: string): Promise<string> {
    const authorities = [...(this.#authorities.get(key(deployment, channel)) ?? [])];
    for (const authority of authorities) {
      try {
        const auth = (await authorizePusherChannels(await authority(), socketId, [channel]))[channel];
        if (auth) return auth;
      } catch (error) {
        this.options.logger.debug({ err: error, channel }, 'an authority could not authorise a channel');
      }
    }
    throw new Error(`No linked account may read ${channel}`);
  }
}

function key(deployment: Deployment, channel: string): string {
  return `${deployment}:${channel}`;
}
