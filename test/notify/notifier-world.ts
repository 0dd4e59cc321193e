import { randomUUID } from 'node:crypto';
import { getBuild } from '../../src/ci/builds.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import type { SubscriptionFilters } from '../../src/notify/filter-types.js';
import { createNotifier, type Notifier, type NotifierOptions } from '../../src/notify/notifier.js';
import type { BuildUpdate } from '../../src/notify/types.js';
import { createServices, type Services } from '../../src/services.js';
import { type OutboxOptions, SlackOutbox } from '../../src/slack/outbox/index.js';
import { createRedis, RedisKv } from '../../src/store/redis-kv.js';
import type { Subscription } from '../../src/store/subscriptions.js';
import { type FakeCi, startFakeCi } from '../fakes/ci/index.js';
import type { AddBuildInput } from '../fakes/ci/state.js';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from '../fakes/slack/index.js';
import { outboxCallerFor } from '../helpers/outbox-caller.js';
import { deleteUnder, REDIS_URL } from '../store/harness.js';

/**
 * The notifier between a fake CI, a fake Slack and a real Redis (under a prefix of its own), with
 * a real outbox paced for tests. Updates are read from the fake CI with the real client, as the
 * watcher would hand them over. `replica()` starts another process's worth of services and
 * notifier on the same Redis and the same fake Slack.
 */

export const TEAM = FAKE_IDENTITY.teamId;
export const USER = FAKE_IDENTITY.userId;
export const TEST_KEY = Buffer.alloc(32, 3).toString('base64');

/** Short pacing: tests should not wait a second per post. */
export const FAST_OUTBOX: Partial<OutboxOptions> = {
  channelIntervalMs: 5,
  channelBurst: 20,
  maxAttempts: 2,
  retryBaseMs: 10,
  budgets: { 'chat.update': 60_000 },
};

export const FAST_NOTIFIER: NotifierOptions = {
  retry: { delaysMs: [50, 100, 200], sweepIntervalMs: 0 },
};

export interface Replica {
  services: Services;
  notifier: Notifier;
  outbox: SlackOutbox;
}

export interface NotifyWorld {
  ci: FakeCi;
  slack: FakeSlack;
  config: Config;
  /** The first replica. */
  services: Services;
  notifier: Notifier;
  replica(options?: { notifier?: NotifierOptions; outbox?: Partial<OutboxOptions> }): Promise<Replica>;
  /** A repository of its own for a test (rkh is admin), subscribed by `channelId` with `filters`. */
  repo(name: string): { id: number; slug: string };
  subscribe(
    channelId: string,
    repo: { id: number; slug: string },
    filters?: SubscriptionFilters,
    createdBy?: string,
  ): Promise<Subscription>;
  addBuild(repo: { id: number }, input?: AddBuildInput): number;
  /** The build as the watcher would hand it over, read from the fake CI now. */
  update(buildId: number): Promise<BuildUpdate>;
  close(): Promise<void>;
}

export async function startNotifyWorld(
  options: { notifier?: NotifierOptions; outbox?: Partial<OutboxOptions> } = {},
): Promise<NotifyWorld> {
  const ci = await startFakeCi();
  const slack = await startFakeSlack();
  const namespace = `test:ci-slack:notify:${randomUUID()}:`;
  const logger = createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');
  const config = loadConfig({
    SLACK_BOT_TOKEN: FAKE_IDENTITY.botToken,
    SLACK_SIGNING_SECRET: 'test-signing-secret',
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    TOKEN_ENCRYPTION_KEY: TEST_KEY,
    CI_COM_API_URL: ci.url,
    CI_COM_WEB_URL: 'https://app.travis-ci.com',
    CI_REQUEST_TIMEOUT_MS: '1500',
    CI_CONNECT_TIMEOUT_MS: '1000',
    CI_MAX_RETRIES: '1',
    REDIS_URL,
  });
  const closers: (() => Promise<void>)[] = [];

  const replica = async (
    o: { notifier?: NotifierOptions; outbox?: Partial<OutboxOptions> } = {},
  ): Promise<Replica> => {
    const kv = new RedisKv(createRedis(REDIS_URL, logger), { prefix: namespace });
    const base = createServices({
      config,
      logger,
      kv,
      storeKind: 'redis',
      userAgent: 'ci-slack-test/0.0.0',
      ciOverrides: { backoff: { baseMs: 5, maxMs: 20 } },
    });
    const client = outboxCallerFor(slack);
    const outbox = new SlackOutbox({
      clientFor: () => client,
      logger,
      ...FAST_OUTBOX,
      ...options.outbox,
      ...o.outbox,
    });
    const services: Services = { ...base, outbox };
    const notifier = createNotifier(services, { ...FAST_NOTIFIER, ...options.notifier, ...o.notifier });
    closers.push(async () => {
      await notifier.close();
      outbox.close();
      base.outbox.close();
      await base.realtime.close();
      await base.ci.close();
      await kv.close();
    });
    return { services, notifier, outbox };
  };

  const first = await replica();
  let repos = 0;
  // A linked subscriber: the failure logs are read with this token.
  await first.services.accounts.link({
    teamId: TEAM,
    userId: USER,
    deployment: 'com',
    ciLogin: 'rkh',
    ciUserId: 267,
    token: 'token-rkh',
  });
  const session = first.services.ci.session('com', 'token-rkh');

  return {
    ci,
    slack,
    config,
    services: first.services,
    notifier: first.notifier,
    replica,
    repo(name) {
      const repo = ci.state.addRepo({ slug: `rkh/${name}-${++repos}`, defaultBranch: 'main' });
      ci.state.grant('rkh', repo.id, 'admin');
      return { id: repo.id, slug: repo.slug };
    },
    async subscribe(channelId, repo, filters = {}, createdBy = USER) {
      const { subscription } = await first.services.subscriptions.upsert({
        teamId: TEAM,
        channelId,
        deployment: 'com',
        target: { kind: 'repo', repoId: repo.id, slug: repo.slug },
        filters,
        createdBy,
      });
      return subscription;
    },
    addBuild(repo, input = {}) {
      return ci.state.addBuild(repo.id, input).id;
    },
    async update(buildId) {
      const detail = await getBuild(session, buildId);
      const record = ci.state.getBuild(buildId);
      const repo = record ? ci.state.getRepo(record.repositoryId) : undefined;
      if (!repo) throw new Error(`no build ${buildId} in the fake`);
      return {
        deployment: 'com',
        repo: { id: repo.id, slug: repo.slug },
        build: detail.build,
        commit: detail.commit,
        jobs: detail.jobs,
        source: 'poll',
      };
    },
    async close() {
      for (const close of closers) await close();
      await Promise.all([ci.close(), slack.close()]);
      await deleteUnder(namespace);
    },
  };
}

/** Top-level messages of a channel (thread replies left out). */
export function parents(slack: FakeSlack, channel: string) {
  return slack.messages(channel).filter((m) => m.thread_ts === undefined);
}

/** Replies in the thread of `ts`. */
export function replies(slack: FakeSlack, channel: string, ts: string) {
  return slack.messages(channel).filter((m) => m.thread_ts === ts);
}

/** What a reader sees of a message: its text and the text of its blocks. */
export function shown(message: { text: string; blocks?: unknown[] }): string {
  return JSON.stringify([message.text, message.blocks ?? []]);
}
