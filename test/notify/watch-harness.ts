import { randomUUID } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import type { BuildSink, BuildUpdate } from '../../src/notify/types.js';
import { type BuildWatcher, createWatcher, type WatcherOptions } from '../../src/notify/watcher.js';
import { createServices, type Services } from '../../src/services.js';
import { createRedis, RedisKv } from '../../src/store/redis-kv.js';
import type { Subscription } from '../../src/store/subscriptions.js';
import { type FakeCi, type FakeCiOptions, startFakeCi } from '../fakes/ci/index.js';
import { type FakePusher, startFakePusher } from '../fakes/pusher-server.js';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from '../fakes/slack/index.js';
import { deleteUnder, REDIS_URL } from '../store/harness.js';

/**
 * A world for watcher tests: fake CI (its realtime messages forwarded to a fake Pusher server),
 * fake Slack, and a Redis prefix of its own. `process()` builds one app process (its own services:
 * Redis connection, CI client, realtime hub, outbox) with a watcher and a recording sink; several
 * processes on one world share the Redis prefix, as replicas do.
 */

export const TEAM = FAKE_IDENTITY.teamId;
export const TEST_KEY = Buffer.alloc(32, 7).toString('base64');
const PUSHER = { key: 'watch-key', secret: 'watch-secret' };
const FAST_REALTIME = { minReconnectDelayMs: 40, maxReconnectDelayMs: 160, resubscribeTimeoutMs: 2_000 };

export interface WorldOptions {
  /** A fake Pusher server behind GET /config (default true). */
  realtime?: boolean;
  fakeCi?: FakeCiOptions;
  env?: Record<string, string>;
}

export interface WatchProcess {
  services: Services;
  watcher: BuildWatcher;
  sink: RecordingSink;
  /** Stops the watcher and closes the process's services. */
  close(): Promise<void>;
}

export interface WatchWorld {
  ci: FakeCi;
  pusher: FakePusher | undefined;
  slack: FakeSlack;
  prefix: string;
  config: Config;
  /** Services for setting the world up (links, subscriptions), like another replica would. */
  admin: Services;
  process(options?: WatcherOptions, sink?: RecordingSink): Promise<WatchProcess>;
  link(userId: string, login: string): Promise<void>;
  subscribe(channelId: string, target: string, userId: string): Promise<Subscription>;
  close(): Promise<void>;
}

export async function startWorld(options: WorldOptions = {}): Promise<WatchWorld> {
  const pusher = options.realtime === false ? undefined : await startFakePusher(PUSHER);
  const ci = await startFakeCi({
    ...(pusher ? { pusher: { ...PUSHER, host: '127.0.0.1', port: pusher.port, scheme: 'ws' as const } } : {}),
    ...options.fakeCi,
  });
  if (pusher)
    ci.events.on('pusher', (m: { channel: string; event: string; data: unknown }) =>
      pusher.trigger(m.channel, m.event, m.data),
    );
  const slack = await startFakeSlack();
  const prefix = `test:ci-slack:watch:${randomUUID()}:`;
  const config = worldConfig(ci.url, slack.apiUrl, options.env);
  const processes: WatchProcess[] = [];
  const admin = makeServices(config, prefix);

  const world: WatchWorld = {
    ci,
    pusher,
    slack,
    prefix,
    config,
    admin,
    async process(watcherOptions = {}, sink = new RecordingSink()) {
      const services = makeServices(config, prefix);
      const watcher = createWatcher(services, sink, watcherOptions);
      const proc: WatchProcess = {
        services,
        watcher,
        sink,
        async close() {
          await watcher.stop();
          await closeServices(services);
        },
      };
      processes.push(proc);
      await watcher.start();
      return proc;
    },
    async link(userId, login) {
      const user = ci.state.requireUser(login);
      await admin.accounts.link({
        teamId: TEAM,
        userId,
        deployment: 'com',
        ciLogin: login,
        ciUserId: user.id,
        token: user.tokens[0] ?? `token-${login}`,
      });
    },
    async subscribe(channelId, target, userId) {
      const [owner, name] = target.split('/');
      const result = await admin.subscriptions.upsert({
        teamId: TEAM,
        channelId,
        deployment: 'com',
        target:
          name === '*'
            ? {
                kind: 'owner',
                owner: owner ?? '',
                repos: [...ci.state.repos.values()]
                  .filter((r) => r.ownerName === owner)
                  .map((r) => ({ id: r.id, slug: r.slug })),
              }
            : { kind: 'repo', repoId: ci.state.requireRepo(target).id, slug: target },
        filters: {},
        createdBy: userId,
      });
      return result.subscription;
    },
    async close() {
      for (const proc of processes) await proc.close().catch(() => undefined);
      await closeServices(admin);
      await Promise.all([ci.close(), pusher?.close(), slack.close()]);
      await deleteUnder(prefix);
    },
  };
  return world;
}

export function worldConfig(ciUrl: string, slackUrl: string, env: Record<string, string> = {}): Config {
  return loadConfig({
    SLACK_BOT_TOKEN: FAKE_IDENTITY.botToken,
    SLACK_SIGNING_SECRET: 'watch-test-secret',
    SLACK_API_URL: slackUrl,
    TOKEN_ENCRYPTION_KEY: TEST_KEY,
    REDIS_URL,
    CI_COM_API_URL: ciUrl,
    CI_COM_WEB_URL: 'https://app.travis-ci.com',
    CI_ORG_API_URL: '',
    CI_REQUEST_TIMEOUT_MS: '2000',
    CI_CONNECT_TIMEOUT_MS: '1000',
    CI_MAX_RETRIES: '0',
    NOTIFY_POLL_INTERVAL_MS: '100',
    LEASE_TTL_MS: '600',
    ...env,
  });
}

export function makeServices(config: Config, prefix: string): Services {
  const logger = createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');
  return createServices({
    config,
    logger,
    kv: new RedisKv(createRedis(REDIS_URL, logger), { prefix }),
    storeKind: 'redis',
    userAgent: 'ci-slack-test/0.0.0',
    ciOverrides: { backoff: { baseMs: 5, maxMs: 20 } },
    realtimeTiming: FAST_REALTIME,
  });
}

export async function closeServices(services: Services): Promise<void> {
  await services.outbox.drain(2_000);
  services.outbox.close();
  await services.realtime.close();
  await services.ci.close();
  await services.kv.close();
}

/** What a test compares updates by: the build and the states of it and its jobs. */
export function describeUpdate(update: BuildUpdate): string {
  return `${update.build.id}:${update.build.state}:${update.jobs.map((j) => j.state).join(',')}`;
}

/** A sink that records every update and lets a test wait for one. */
export class RecordingSink implements BuildSink {
  readonly updates: BuildUpdate[] = [];
  readonly #changes = new EventEmitter();

  async handle(update: BuildUpdate): Promise<void> {
    this.updates.push(update);
    this.#changes.emit('update');
  }

  of(buildId: number): BuildUpdate[] {
    return this.updates.filter((u) => u.build.id === buildId);
  }

  /** The first update matching, waiting for it when it has not come yet. */
  waitFor(
    match: (update: BuildUpdate) => boolean,
    description: string,
    timeoutMs = 5_000,
  ): Promise<BuildUpdate> {
    return waitUntil(this.#changes, 'update', () => this.updates.find(match), description, timeoutMs);
  }
}

/** Resolves with `check()`'s first defined value, re-checked whenever `emitter` emits `event`. */
export function waitUntil<T>(
  emitter: EventEmitter,
  event: string,
  check: () => T | undefined,
  description: string,
  timeoutMs: number,
): Promise<T> {
  const now = check();
  if (now !== undefined) return Promise.resolve(now);
  return new Promise((resolve, reject) => {
    const onEvent = () => {
      const value = check();
      if (value === undefined) return;
      clearTimeout(timer);
      emitter.off(event, onEvent);
      resolve(value);
    };
    const timer = setTimeout(() => {
      emitter.off(event, onEvent);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description}`));
    }, timeoutMs);
    emitter.on(event, onEvent);
  });
}

/** Polls `condition` every few milliseconds (for state with no event to wait on, like lease counts). */
export async function eventually(
  condition: () => boolean | Promise<boolean>,
  description: string,
  timeoutMs = 5_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
