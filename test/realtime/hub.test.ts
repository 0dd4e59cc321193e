import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CiClient } from '../../src/ci/client.js';
import { createLogger } from '../../src/log.js';
import { RealtimeHub } from '../../src/realtime/hub.js';
import { type FakeCi, startFakeCi } from '../fakes/ci/index.js';
import { type FakePusher, startFakePusher } from '../fakes/pusher-server.js';
import { Calls } from './helpers.js';

async function until(condition: () => boolean, description: string, timeoutMs = 3_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${description}`);
    await sleep(10);
  }
}

const FAST = { minReconnectDelayMs: 40, maxReconnectDelayMs: 160, resubscribeTimeoutMs: 2_000 };

describe('RealtimeHub', () => {
  let pusher: FakePusher;
  let ci: FakeCi;
  let client: CiClient;
  let hub: RealtimeHub;

  before(async () => {
    pusher = await startFakePusher({ key: 'hub-key', secret: 'hub-secret' });
    ci = await startFakeCi({
      pusher: {
        key: 'hub-key',
        secret: 'hub-secret',
        host: '127.0.0.1',
        port: pusher.port,
        scheme: 'ws',
        private: true,
      },
    });
    client = new CiClient({
      deployments: { com: { name: 'com', apiUrl: ci.url, webUrl: 'https://app.example' } },
      mediaType: 'application/vnd.travis-ci.2.1+json',
      versionHeader: 'Travis-API-Version',
      connectTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      maxRetries: 0,
      userAgent: 'hub-test/1.0',
    });
    hub = new RealtimeHub({ ci: client, logger: createLogger('silent'), timing: FAST });
  });
  after(async () => {
    await hub.close();
    await client.close();
    await Promise.all([ci.close(), pusher.close()]);
  });

  it('connects with the settings of GET /config and authorises private channels with a user token', async () => {
    const events = new Calls<[string, unknown]>();
    const stop = await hub.subscribe('com', 'job-9101', events.fn, async () =>
      client.session('com', 'token-rkh'),
    );
    await pusher.waitForSubscription('private-job-9101');
    pusher.trigger('private-job-9101', 'job:log', { id: 9101, _log: 'hello', number: 0, final: false });
    await events.waitFor(1);
    assert.deepEqual(events.calls[0], ['job:log', { id: 9101, _log: 'hello', number: 0, final: false }]);
    const auth = ci.requests.filter((r) => r.path === '/pusher/auth');
    assert.equal(auth.length, 1);
    assert.equal(auth[0]?.headers.authorization, 'token token-rkh');
    stop();
  });

  it('tries each authority until one may read the channel', async () => {
    const build = ci.state.addBuild('rkh/secret-project', { state: 'started', jobs: 1 });
    const [job] = ci.state.jobsOf(build);
    assert.ok(job);
    const events = new Calls<[string, unknown]>();
    const stop = await hub.subscribe('com', `job-${job.id}`, events.fn, async () =>
      client.session('com', 'token-visitor'),
    );
    const stopOwner = await hub.subscribe(
      'com',
      `job-${job.id}`,
      () => {},
      async () => client.session('com', 'token-rkh'),
    );
    await pusher.waitForSubscription(`private-job-${job.id}`);
    pusher.trigger(`private-job-${job.id}`, 'job:log', { id: job.id, _log: 'x', number: 1 });
    await events.waitFor(1);
    const tokens = ci.requests.filter((r) => r.path === '/pusher/auth').map((r) => r.headers.authorization);
    assert.deepEqual(
      tokens.slice(-2),
      ['token token-visitor', 'token token-rkh'],
      'the visitor is refused, then rkh signs',
    );
    stop();
    stopOwner();
  });

  it('gives a channel refused to everyone so far another try when a new authority arrives', async () => {
    const build = ci.state.addBuild('rkh/secret-project', { state: 'started', jobs: 1 });
    const [job] = ci.state.jobsOf(build);
    assert.ok(job);
    const channel = `job-${job.id}`;
    const refusals = () =>
      ci.requests.filter(
        (r) => r.path === '/pusher/auth' && r.headers.authorization === 'token token-visitor',
      ).length;
    const before = refusals();
    const stop = await hub.subscribe(
      'com',
      channel,
      () => {},
      async () => client.session('com', 'token-visitor'),
    );
    await until(() => refusals() > before, 'the visitor to be refused');
    await sleep(100); // let pusher-js report the refusal
    assert.equal(pusher.subscriptions().get(`private-${channel}`) ?? 0, 0);
    const stopOwner = await hub.subscribe(
      'com',
      channel,
      () => {},
      async () => client.session('com', 'token-rkh'),
    );
    await pusher.waitForSubscription(`private-${channel}`);
    stop();
    stopOwner();
  });

  it('tells listeners about reconnects', async () => {
    const reconnected = new Calls<[]>();
    const stopListening = await hub.onReconnected('com', reconnected.fn);
    const stop = await hub.subscribe(
      'com',
      'job-4125096',
      () => {},
      async () => client.session('com', 'token-rkh'),
    );
    await pusher.waitForSubscription('private-job-4125096');
    pusher.dropAll();
    await reconnected.waitFor(1, 5_000);
    await pusher.waitForSubscription('private-job-4125096');
    stop();
    stopListening();
  });
});

describe('RealtimeHub without a reachable CI service', () => {
  it('rejects, and tries again on the next subscribe', async () => {
    const ci = await startFakeCi();
    const client = new CiClient({
      deployments: { com: { name: 'com', apiUrl: ci.url, webUrl: 'https://app.example' } },
      mediaType: 'application/vnd.travis-ci.2.1+json',
      versionHeader: 'Travis-API-Version',
      connectTimeoutMs: 1000,
      requestTimeoutMs: 2000,
      maxRetries: 0,
      userAgent: 'hub-test/1.0',
    });
    const hub = new RealtimeHub({ ci: client, logger: createLogger('silent') });
    try {
      ci.fault({ path: '/config' }, { status: 503, times: 1 });
      await assert.rejects(
        hub.subscribe('com', 'repo-891', () => {}),
        { code: 'unavailable' },
      );
      const stop = await hub.subscribe('com', 'repo-891', () => {});
      stop();
    } finally {
      await hub.close();
      await client.close();
      await ci.close();
    }
  });
});
