import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { loadConfig } from '../../src/config.js';
import { createLogger } from '../../src/log.js';
import {
  type FollowerTiming,
  LogFollower,
  type LogFollowerOptions,
} from '../../src/realtime/log-follower.js';
import { createServices, type Services } from '../../src/services.js';
import { Follows } from '../../src/store/follows.js';
import { createRedis, RedisKv } from '../../src/store/redis-kv.js';
import { type FakeCi, type FakeCiOptions, type PusherMessage, startFakeCi } from '../fakes/ci/index.js';
import { type FakePusher, startFakePusher } from '../fakes/pusher-server.js';
import {
  FAKE_IDENTITY,
  type FakeSlack,
  type FakeSlackOptions,
  type SlackCall,
  startFakeSlack,
} from '../fakes/slack/index.js';
import { deleteUnder, REDIS_URL } from '../store/harness.js';

/**
 * A log follower's world for tests: fake CI (whose `job:log` events are forwarded to a fake
 * Pusher server), fake Slack, real Redis under a prefix of its own, and the app's services with
 * short timers. U0USER is linked to rkh, U0VISITOR to visitor (no rights).
 */

export const TEAM = FAKE_IDENTITY.teamId;
export const CHANNEL = 'C0FOLLOW';
export const RKH = { teamId: TEAM, userId: 'U0USER' };
export const VISITOR = { teamId: TEAM, userId: 'U0VISITOR' };
export const WEB = 'https://app.travis-ci.com';

/** Realtime reconnects in tens of milliseconds. */
const FAST_REALTIME = { minReconnectDelayMs: 40, maxReconnectDelayMs: 160, resubscribeTimeoutMs: 2_000 };

/** Timers short enough for tests; the REST safety nets are off unless a test turns them on. */
export const TEST_TIMING: Partial<FollowerTiming> = {
  updateIntervalMs: 100,
  gapWaitMs: 60_000,
  jobCheckIntervalMs: 60_000,
  finishGraceMs: 2_000,
  stateRetryMs: 50,
};

export interface WorldOptions {
  fakeCi?: FakeCiOptions;
  slack?: FakeSlackOptions;
  env?: Record<string, string>;
  timing?: Partial<FollowerTiming>;
}

export interface FollowWorld {
  ci: FakeCi;
  pusher: FakePusher;
  slack: FakeSlack;
  services: Services;
  follows: Follows;
  /** Another follower on the same store and services (a second process, as far as leases go). */
  follower(options?: LogFollowerOptions): LogFollower;
  /** A started job of a new build (rails/rails unless said otherwise). */
  runningJob(repo?: string): { jobId: number; buildId: number; number: string };
  /** The first chat.update of `ts` (made or to come) whose text matches. */
  edit(ts: string, match: RegExp, timeoutMs?: number): Promise<SlackCall>;
  /** The final edit of `ts`: the one that no longer says "Live log". */
  finalEdit(ts: string, timeoutMs?: number): Promise<SlackCall>;
  close(): Promise<void>;
}

export async function startFollowWorld(options: WorldOptions = {}): Promise<FollowWorld> {
  const pusher = await startFakePusher({ key: 'follow-key', secret: 'follow-secret' });
  const ci = await startFakeCi({
    pusher: {
      key: 'follow-key',
      secret: 'follow-secret',
      host: '127.0.0.1',
      port: pusher.port,
      scheme: 'ws',
    },
    ...options.fakeCi,
  });
  const forward = (message: PusherMessage) => pusher.trigger(message.channel, message.event, message.data);
  ci.events.on('pusher', forward);
  const slack = await startFakeSlack(options.slack);
  const namespace = `test:ci-slack:follow:${randomUUID()}:`;
  const logger = createLogger(process.env.TEST_LOG_LEVEL === 'debug' ? 'debug' : 'silent');
  const config = loadConfig({
    SLACK_BOT_TOKEN: FAKE_IDENTITY.botToken,
    SLACK_SIGNING_SECRET: 'follow-test-secret',
    SLACK_API_URL: slack.apiUrl,
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 7).toString('base64'),
    REDIS_URL,
    CI_COM_API_URL: ci.url,
    CI_COM_WEB_URL: WEB,
    CI_ORG_API_URL: '',
    CI_REQUEST_TIMEOUT_MS: '2000',
    CI_MAX_RETRIES: '1',
    // Room for every edit the tests make: the follower's own pacing is what they measure.
    SLACK_RATE_BUDGETS: 'chat.update=6000,chat.postMessage=6000',
    ...options.env,
  });
  const kv = new RedisKv(createRedis(REDIS_URL, logger), { prefix: namespace });
  const timing = { ...TEST_TIMING, ...options.timing };
  const services = createServices({
    config,
    logger,
    kv,
    storeKind: 'redis',
    userAgent: 'ci-slack-test/0.0.0',
    ciOverrides: { backoff: { baseMs: 5, maxMs: 20 } },
    realtimeTiming: FAST_REALTIME,
    follower: { ownerId: 'main', timing },
  });
  for (const [userId, login] of [
    ['U0USER', 'rkh'],
    ['U0VISITOR', 'visitor'],
  ] as const) {
    await services.accounts.link({
      teamId: TEAM,
      userId,
      deployment: 'com',
      ciLogin: login,
      ciUserId: ci.state.getUser(login)?.id ?? 1,
      token: `token-${login}`,
    });
  }

  const extra: LogFollower[] = [];
  const editOf = (ts: string, match: RegExp, timeoutMs = 5_000) =>
    slack.waitForCall(
      'chat.update',
      (c) => c.ok && c.args.ts === ts && match.test(String(c.args.text)),
      timeoutMs,
    );
  return {
    ci,
    pusher,
    slack,
    services,
    follows: new Follows(kv),
    follower(o = {}) {
      const follower = new LogFollower(services, { ...o, timing: { ...timing, ...o.timing } });
      extra.push(follower);
      return follower;
    },
    runningJob(repo = 'rails/rails') {
      const build = ci.state.addBuild(repo, { state: 'started', jobs: 1 });
      const [job] = ci.state.jobsOf(build);
      if (!job) throw new Error('the build has no job');
      return { jobId: job.id, buildId: build.id, number: job.number };
    },
    edit: editOf,
    finalEdit: (ts, timeoutMs) => editOf(ts, /^(?![\s\S]*\*Live log\*)/, timeoutMs),
    async close() {
      for (const follower of extra) await follower.stop();
      await services.follower.stop();
      services.outbox.close();
      await services.realtime.close();
      await services.ci.close();
      await kv.close();
      ci.events.off('pusher', forward);
      await Promise.all([ci.close(), slack.close(), pusher.close()]);
      await deleteUnder(namespace);
    },
  };
}

/** The lines of the code block of a tail message (none when it shows "No output yet"). */
export function shownLines(text: string): string[] {
  const start = text.indexOf('```\n');
  if (start < 0) return [];
  return text.slice(start + 4, text.lastIndexOf('\n```')).split('\n');
}

/** A small deterministic generator, so a shuffled stream is the same on every run. */
export function seededRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

/** Resolves once `condition` holds, checked every few milliseconds (for state no event announces). */
export async function waitUntil(
  condition: () => boolean | Promise<boolean>,
  description: string,
  timeoutMs = 3_000,
): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await condition())) {
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${description}`);
    await sleep(10);
  }
}
