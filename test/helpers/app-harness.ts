import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { startBackground } from '../../src/background.js';
import { type Config, loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import type { MigrationTiming } from '../../src/migration/runner.js';
import { createServices, type Services } from '../../src/services.js';
import { type RunningSlackApp, startSlackApp } from '../../src/slack/app.js';
import type { Kv } from '../../src/store/kv.js';
import { MemoryKv } from '../../src/store/memory-kv.js';
import { createRedis, RedisKv } from '../../src/store/redis-kv.js';
import { type FakeCi, type FakeCiOptions, type PusherMessage, startFakeCi } from '../fakes/ci/index.js';
import { type FakePusher, startFakePusher } from '../fakes/pusher-server.js';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from '../fakes/slack/index.js';
import { deleteUnder, REDIS_URL } from '../store/harness.js';
import {
  type AppResponse,
  type BlockActionsParams,
  blockActionsBody,
  eventBody,
  type MessageShortcutParams,
  messageShortcutBody,
  postToApp,
  slashCommandBody,
  type ViewSubmissionParams,
  viewSubmissionBody,
} from './slack-requests.js';

/**
 * The whole app, from outside: the real Slack app (HTTP mode, signature checks on) talking to a
 * fake CI service, a fake Slack Web API and a real Redis under a prefix of its own. Tests send
 * signed requests in and read what reached the fakes.
 */

export const SIGNING_SECRET = 'test-signing-secret';
/** The harness's CI request timeout: a slow-CI test delays the fake beyond it. */
export const HARNESS_CI_TIMEOUT_MS = 1_500;
/**
 * How fast an acknowledgement must be in tests. It stays below the CI timeout, so an ack that
 * waited for the CI service would fail; the rest is headroom for a loaded machine (Slack allows 3 s).
 */
export const ACK_BUDGET_MS = HARNESS_CI_TIMEOUT_MS - 100;

/** The request was acknowledged at once: HTTP 200 within ACK_BUDGET_MS. */
export function assertAckedAtOnce(ack: AppResponse, what = 'the request'): void {
  assert.equal(ack.status, 200, `${what}: status ${ack.status}`);
  assert.ok(ack.ms < ACK_BUDGET_MS, `${what}: ack took ${Math.round(ack.ms)} ms`);
}
export const TEST_KEY = Buffer.alloc(32, 3).toString('base64');

export interface HarnessOptions {
  fakeCi?: FakeCiOptions;
  /** A second fake CI as the `org` deployment (migration, two deployments). */
  orgCi?: FakeCiOptions | boolean;
  /** Extra environment variables (over the harness defaults). */
  env?: Record<string, string>;
  /** Use the in-memory store instead of Redis. */
  memory?: boolean;
  /** A Redis of the test's own (test/helpers/own-redis.ts) instead of the shared one under a prefix. */
  redisUrl?: string;
  /** Fast CI timeouts and retries, unless a test wants the real defaults. */
  ciRequestTimeoutMs?: number;
  /** Log everything (trace level) into `h.logs`, to check that no secret is ever logged. */
  captureLogs?: boolean;
  /** Shorter migration checks for migration tests. */
  migrationTiming?: Partial<MigrationTiming>;
  /** A realtime (Pusher-protocol) server the fake CI announces in GET /config and signs for. */
  pusher?: boolean;
  /** Run the background work too (watcher, notifier, migrations), as main.ts does. */
  background?: boolean;
  /** Another app process on the same fakes and the same Redis namespace (a replica). */
  replicaOf?: Harness;
}

export interface Harness {
  ci: FakeCi;
  orgCi: FakeCi | undefined;
  slack: FakeSlack;
  pusher: FakePusher | undefined;
  services: Services;
  config: Config;
  kv: Kv;
  /** The Redis key prefix of this harness (every key the app writes starts with it). */
  namespace: string;
  app: RunningSlackApp;
  eventsUrl: string;
  baseUrl: string;
  /** Every log line (JSON) when started with `captureLogs`; empty otherwise. */
  logs: string[];
  /** Links a Slack user to a seeded CI user directly through the store (default: U0USER → rkh). */
  link(options?: {
    userId?: string;
    login?: string;
    token?: string;
    ciUserId?: number;
    deployment?: 'com' | 'org';
  }): Promise<void>;
  /** Sends `/ci <text>` and returns the app's HTTP answer plus the response_url it should answer on. */
  command(
    text: string,
    options?: { userId?: string; channelId?: string; withTrigger?: boolean },
  ): Promise<{ ack: AppResponse; responseUrl: string; triggerId: string }>;
  click(
    params: Omit<BlockActionsParams, 'responseUrl'> & { responseUrl?: string },
  ): Promise<{ ack: AppResponse; responseUrl: string }>;
  submit(params: ViewSubmissionParams): Promise<AppResponse>;
  shortcut(params: MessageShortcutParams): Promise<AppResponse>;
  event(event: object, eventId?: string): Promise<AppResponse>;
  /** The next answer posted to this response_url. */
  answer(responseUrl: string, timeoutMs?: number): Promise<Record<string, unknown>>;
  close(): Promise<void>;
}

interface SharedWorld {
  ci: FakeCi;
  orgCi: FakeCi | undefined;
  slack: FakeSlack;
  pusher: FakePusher | undefined;
  namespace: string;
}

async function startWorld(options: HarnessOptions): Promise<SharedWorld> {
  const pusher = options.pusher ? await startFakePusher() : undefined;
  const realtime = pusher
    ? {
        pusher: {
          key: pusher.key,
          secret: pusher.secret,
          host: '127.0.0.1',
          port: pusher.port,
          scheme: 'ws' as const,
        },
      }
    : {};
  const ci = await startFakeCi({ ...realtime, ...options.fakeCi });
  const orgCi = options.orgCi
    ? await startFakeCi({ deployment: 'org', ...(typeof options.orgCi === 'object' ? options.orgCi : {}) })
    : undefined;
  const slack = await startFakeSlack();
  // What the fake CI announces (build and job events, log parts) reaches the realtime server.
  if (pusher) ci.events.on('pusher', (m: PusherMessage) => pusher.trigger(m.channel, m.event, m.data));
  return { ci, orgCi, slack, pusher, namespace: `test:ci-slack:app:${randomUUID()}:` };
}

export async function startHarness(options: HarnessOptions = {}): Promise<Harness> {
  const world: SharedWorld = options.replicaOf ?? (await startWorld(options));
  const { ci, orgCi, slack, pusher, namespace } = world;
  const redisUrl = options.redisUrl ?? REDIS_URL;
  const logs: string[] = [];
  const logger = options.captureLogs
    ? createLogger('trace', { write: (line: string) => void logs.push(line) })
    : createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');

  const config = loadConfig({
    SLACK_BOT_TOKEN: FAKE_IDENTITY.botToken,
    SLACK_SIGNING_SECRET: SIGNING_SECRET,
    SLACK_API_URL: slack.apiUrl,
    PORT: '0',
    TOKEN_ENCRYPTION_KEY: TEST_KEY,
    CI_COM_API_URL: ci.url,
    CI_COM_WEB_URL: 'https://app.travis-ci.com',
    CI_ORG_API_URL: orgCi ? orgCi.url : '',
    CI_ORG_WEB_URL: 'https://app.travis-ci.org',
    CI_REQUEST_TIMEOUT_MS: String(options.ciRequestTimeoutMs ?? HARNESS_CI_TIMEOUT_MS),
    CI_CONNECT_TIMEOUT_MS: '1000',
    CI_MAX_RETRIES: '1',
    ...(options.memory ? {} : { REDIS_URL: redisUrl }),
    ...options.env,
  });
  const kv: Kv = options.memory
    ? new MemoryKv()
    : new RedisKv(createRedis(redisUrl, logger), { prefix: namespace });
  const services = createServices({
    config,
    logger,
    kv,
    storeKind: options.memory ? 'memory' : 'redis',
    userAgent: 'ci-slack-test/0.0.0',
    ciOverrides: { backoff: { baseMs: 5, maxMs: 20 } },
    ...(options.migrationTiming ? { migrationTiming: options.migrationTiming } : {}),
  });
  const app = await startSlackApp(services, 0);
  const background = options.background ? await startBackground(services) : undefined;
  const baseUrl = `http://127.0.0.1:${app.port}`;
  const eventsUrl = `${baseUrl}/slack/events`;
  const post = (body: string, contentType?: string) =>
    postToApp(eventsUrl, body, { signingSecret: SIGNING_SECRET, ...(contentType ? { contentType } : {}) });

  return {
    ci,
    orgCi,
    slack,
    pusher,
    services,
    config,
    kv,
    namespace,
    app,
    eventsUrl,
    baseUrl,
    logs,
    async link(o = {}) {
      const login = o.login ?? 'rkh';
      const fake = o.deployment === 'org' && orgCi ? orgCi : ci;
      const user = fake.state.getUser(login);
      await services.accounts.link({
        teamId: FAKE_IDENTITY.teamId,
        userId: o.userId ?? FAKE_IDENTITY.userId,
        deployment: o.deployment ?? 'com',
        ciLogin: login,
        ciUserId: o.ciUserId ?? user?.id ?? 1,
        token: o.token ?? `token-${login}`,
      });
    },
    async command(text, o = {}) {
      const responseUrl = slack.responseUrl();
      const triggerId = slack.issueTriggerId();
      const ack = await post(
        slashCommandBody({
          text,
          responseUrl,
          triggerId,
          ...(o.userId ? { userId: o.userId } : {}),
          ...(o.channelId ? { channelId: o.channelId } : {}),
        }),
      );
      return { ack, responseUrl, triggerId };
    },
    async click(params) {
      const responseUrl = params.responseUrl ?? slack.responseUrl();
      const ack = await post(blockActionsBody({ triggerId: slack.issueTriggerId(), ...params, responseUrl }));
      return { ack, responseUrl };
    },
    submit: (params) => post(viewSubmissionBody(params)),
    shortcut: (params) => post(messageShortcutBody(params)),
    event: (event, eventId) =>
      post(eventBody({ event, ...(eventId ? { eventId } : {}) }), 'application/json'),
    async answer(responseUrl, timeoutMs = 3_000) {
      const seen = slack.responses.filter((r) => r.url === responseUrl).length;
      const found = await slack.waitForResponse(
        (r) =>
          r.url === responseUrl && slack.responses.filter((x) => x.url === responseUrl).indexOf(r) >= seen,
        timeoutMs,
      );
      return found.body;
    },
    async close() {
      await app.stop();
      await background?.stop();
      await services.migrations.stop();
      await services.follower.stop();
      services.outbox.close();
      await services.realtime.close();
      await services.ci.close();
      await kv.close();
      // A replica leaves the shared fakes and Redis namespace to the harness it joined.
      if (options.replicaOf) return;
      await Promise.all([ci.close(), orgCi?.close(), slack.close(), pusher?.close()]);
      if (!options.memory && !options.redisUrl) await deleteUnder(namespace);
    },
  };
}

/**
 * A harness whose two usual users are linked: U0USER as rkh (admin of rails/rails, owner of the
 * private rkh/secret-project) and U0VISITOR as visitor (no rights anywhere).
 */
export async function startLinkedHarness(options: HarnessOptions = {}): Promise<Harness> {
  const h = await startHarness(options);
  await h.link();
  await h.link({ userId: 'U0VISITOR', login: 'visitor' });
  return h;
}

/** Everything a Slack message shows a reader: its text and the text of all its blocks. */
export function visibleText(message: Record<string, unknown>): string {
  return JSON.stringify([message.text, message.blocks ?? []]);
}
