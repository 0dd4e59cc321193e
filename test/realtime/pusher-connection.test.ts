import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  type PusherSettings,
  RealtimeConnection,
  type RealtimeConnectionOptions,
  type RealtimeTiming,
} from '../../src/realtime/pusher-connection.js';
import { channelAuth, type FakePusher, startFakePusher } from '../fakes/pusher-server.js';
import { Calls, captureLogs, ERROR, WARN } from './helpers.js';

const FAST: Partial<RealtimeTiming> = {
  minReconnectDelayMs: 40,
  maxReconnectDelayMs: 160,
  resubscribeTimeoutMs: 1000,
};

type Received = { event: string; data: unknown };

describe('RealtimeConnection against the fake Pusher server (relay settings, scheme ws)', () => {
  let fake: FakePusher;
  let open: RealtimeConnection[] = [];

  before(async () => {
    fake = await startFakePusher({ path: '/pusher' });
  });
  afterEach(async () => {
    for (const connection of open) connection.close();
    open = [];
    await fake.waitFor(() => fake.connections() === 0, 'every test connection to close');
    fake.received.length = 0;
    fake.refuseConnections(false);
  });
  after(() => fake.close());

  function connect(
    options: Partial<Omit<RealtimeConnectionOptions, 'settings'>> & {
      settings?: Partial<PusherSettings>;
    } = {},
  ) {
    const logs = captureLogs();
    const authorize = new Calls<[string, string]>();
    const connection = new RealtimeConnection({
      authorize: async (socketId, channel) => {
        authorize.fn(socketId, channel);
        return channelAuth(fake.key, fake.secret, socketId, channel);
      },
      logger: logs.logger,
      timing: FAST,
      ...options,
      settings: {
        key: fake.key,
        host: fake.host,
        port: fake.port,
        path: 'pusher/',
        scheme: 'ws',
        ...options.settings,
      },
    });
    open.push(connection);
    return { connection, logs, authorize };
  }

  function collect(connection: RealtimeConnection, channel: string) {
    const events = new Calls<[string, unknown]>();
    const unsubscribe = connection.subscribe(channel, events.fn);
    const received = (): Received[] => events.calls.map(([event, data]) => ({ event, data }));
    return { events, unsubscribe, received };
  }

  function subscribeFrames(channel: string) {
    return fake.received.filter((r) => {
      const message = r.message as { event?: string; data?: { channel?: string } };
      return message.event === 'pusher:subscribe' && message.data?.channel === channel;
    });
  }

  it('connects to the relay from host, port, path and scheme, and reports its state', async () => {
    const { connection, logs } = connect();
    assert.equal(connection.state, 'connecting');
    await fake.waitFor(() => fake.connections() === 1, 'a connection');
    await logs.waitFor((r) => r.msg === 'Realtime connection established', 'the connected log');
    assert.equal(connection.state, 'connected');
  });

  it('subscribes to public channels without authorising, and delivers parsed data', async () => {
    const { connection, authorize } = connect();
    const repo = collect(connection, 'repo-1');
    await fake.waitForSubscription('repo-1');
    assert.equal(authorize.count, 0);

    assert.equal(
      fake.trigger('repo-1', 'build:started', { build: { id: 5 }, commit: {}, repository: {} }),
      1,
    );
    await repo.events.waitFor(1);
    assert.deepEqual(repo.received(), [
      { event: 'build:started', data: { build: { id: 5 }, commit: {}, repository: {} } },
    ]);
  });

  it('prefixes private- when settings say so and authorises with the socket id', async () => {
    const { connection, authorize } = connect({ settings: { private: true } });
    assert.equal(connection.channelName('job-1'), 'private-job-1');
    assert.equal(connection.channelName('private-job-1'), 'private-job-1');
    const job = collect(connection, 'job-1');
    await fake.waitForSubscription('private-job-1');

    const [frame] = subscribeFrames('private-job-1');
    assert.deepEqual(authorize.calls, [[frame?.socketId, 'private-job-1']]);
    fake.trigger('private-job-1', 'job:log', { id: 1, _log: 'line\n', number: 3, final: false });
    await job.events.waitFor(1);
    assert.deepEqual(job.received(), [
      { event: 'job:log', data: { id: 1, _log: 'line\n', number: 3, final: false } },
    ]);
  });

  it('keeps channel names as given without the private setting', () => {
    const { connection } = connect();
    assert.equal(connection.channelName('job-1'), 'job-1');
  });

  it('fails only the channel whose authorisation is rejected, and logs it', async () => {
    const failures = new Calls<[string, unknown]>();
    const { connection, logs } = connect({
      settings: { private: true },
      authorize: async (socketId, channel) => {
        if (channel === 'private-job-2') throw new Error('token lacks access to job 2');
        return channelAuth(fake.key, fake.secret, socketId, channel);
      },
      onSubscriptionError: failures.fn,
    });
    const allowed = collect(connection, 'job-1');
    collect(connection, 'job-2');
    await fake.waitForSubscription('private-job-1');
    await failures.waitFor(1);

    assert.equal(failures.calls[0]?.[0], 'private-job-2');
    assert.equal(fake.subscriptions().has('private-job-2'), false);
    assert.equal(subscribeFrames('private-job-2').length, 0);
    assert.ok(
      logs.records.some(
        (r) => r.level === WARN && r.channel === 'private-job-2' && /subscription failed/.test(r.msg ?? ''),
      ),
    );
    fake.trigger('private-job-1', 'job:log', { id: 1, _log: 'still here', number: 1 });
    await allowed.events.waitFor(1);
    assert.equal(connection.state, 'connected');
  });

  it('reports a channel the server refuses (bad signature), surviving a callback that throws', async () => {
    const failures = new Calls<[string, unknown]>();
    const { connection, logs } = connect({
      authorize: async () => `${fake.key}:forged`,
      onSubscriptionError: (channel, error) => {
        failures.fn(channel, error);
        throw new Error('callback bug');
      },
    });
    collect(connection, 'private-user-1');
    await failures.waitFor(1);
    assert.equal(failures.calls[0]?.[0], 'private-user-1');
    assert.equal(fake.subscriptions().size, 0);
    await logs.waitFor(
      (r) => r.level === ERROR && r.callback === 'onSubscriptionError',
      'the callback failure logged',
    );
    const repo = collect(connection, 'repo-10');
    await fake.waitForSubscription('repo-10');
    fake.trigger('repo-10', 'build:created', {});
    await repo.events.waitFor(1);
  });

  it('parses data sent as an object, a JSON string or twice encoded; keeps other text; survives bad frames', async () => {
    const { connection, logs } = connect();
    const repo = collect(connection, 'repo-2');
    await fake.waitForSubscription('repo-2');

    fake.sendRaw(JSON.stringify({ event: 'job:started', channel: 'repo-2', data: { id: 1 } }));
    fake.trigger('repo-2', 'job:started', JSON.stringify({ id: 2 }));
    fake.trigger('repo-2', 'job:started', JSON.stringify(JSON.stringify({ id: 3 })));
    fake.trigger('repo-2', 'job:started', 'plain text');
    fake.sendRaw('{"event": not json');
    fake.trigger('repo-2', 'job:finished', { id: 4 });
    await repo.events.waitFor(5);

    assert.deepEqual(repo.received(), [
      { event: 'job:started', data: { id: 1 } },
      { event: 'job:started', data: { id: 2 } },
      { event: 'job:started', data: { id: 3 } },
      { event: 'job:started', data: 'plain text' },
      { event: 'job:finished', data: { id: 4 } },
    ]);
    assert.ok(
      logs.records.some(
        (r) => r.level === WARN && (r.error as { type?: string })?.type === 'MessageParseError',
      ),
    );
  });

  it('contains handler failures: other listeners still get the event', async () => {
    const { connection, logs } = connect();
    connection.subscribe('repo-3', () => {
      throw new Error('handler bug');
    });
    connection.subscribe('repo-3', async () => {
      throw new Error('async handler bug');
    });
    const healthy = collect(connection, 'repo-3');
    await fake.waitForSubscription('repo-3');
    fake.trigger('repo-3', 'build:finished', { build: { id: 1 } });
    await healthy.events.waitFor(1);
    await logs.waitFor(
      (r) => r.level === ERROR && (r.err as { message?: string })?.message === 'async handler bug',
      'the async failure logged',
    );
    assert.ok(logs.records.some((r) => (r.err as { message?: string })?.message === 'handler bug'));
  });

  it('shares one subscription between listeners and unsubscribes when the last one goes', async () => {
    const { connection } = connect();
    const first = collect(connection, 'repo-4');
    const second = collect(connection, 'repo-4');
    await fake.waitForSubscription('repo-4');
    assert.equal(subscribeFrames('repo-4').length, 1);

    fake.trigger('repo-4', 'build:created', { n: 1 });
    await first.events.waitFor(1);
    await second.events.waitFor(1);

    first.unsubscribe();
    first.unsubscribe(); // a second call is harmless
    fake.trigger('repo-4', 'build:created', { n: 2 });
    await second.events.waitFor(2);
    assert.equal(first.events.count, 1);
    assert.equal(fake.subscriptions().get('repo-4'), 1);

    second.unsubscribe();
    await fake.waitFor(() => !fake.subscriptions().has('repo-4'), 'the server-side unsubscription');
  });

  it('does not resubscribe a channel dropped while its authorisation was pending', async () => {
    let releaseAuth: () => void = () => {};
    const authGate = new Promise<void>((resolve) => {
      releaseAuth = resolve;
    });
    const gated = new Calls<[string, string]>();
    const { connection } = connect({
      authorize: async (socketId, channel) => {
        gated.fn(socketId, channel);
        await authGate;
        return channelAuth(fake.key, fake.secret, socketId, channel);
      },
    });
    const unsubscribe = connection.subscribe('private-user-2', () => {});
    const kept = collect(connection, 'repo-5');
    await fake.waitForSubscription('repo-5');
    await gated.waitFor(1);
    unsubscribe();
    fake.dropAll(4200);
    releaseAuth();
    await fake.waitForSubscription('repo-5');
    fake.trigger('repo-5', 'build:created', {});
    await kept.events.waitFor(1);
    assert.equal(fake.subscriptions().has('private-user-2'), false);
    // The old socket may still carry the first answer before the client sees it closed; the new one must not.
    const firstSocket = gated.calls[0]?.[0];
    assert.deepEqual(
      subscribeFrames('private-user-2').filter((f) => f.socketId !== firstSocket),
      [],
    );
    assert.equal(gated.count, 1, 'the dropped channel is not authorised again');
  });

  it('drops an authorisation that arrives for a socket replaced meanwhile', async () => {
    let releaseFirst: () => void = () => {};
    const firstGate = new Promise<void>((resolve) => {
      releaseFirst = resolve;
    });
    const asked = new Calls<[string, string]>();
    const failures = new Calls<[string, unknown]>();
    const { connection } = connect({
      authorize: async (socketId, channel) => {
        asked.fn(socketId, channel);
        if (asked.count === 1) await firstGate;
        return channelAuth(fake.key, fake.secret, socketId, channel);
      },
      onSubscriptionError: failures.fn,
    });
    collect(connection, 'private-user-3');
    await asked.waitFor(1);
    fake.dropAll(4200);
    await fake.waitForSubscription('private-user-3');
    releaseFirst();
    // Let the released answer settle, then rely on frame order: once the server sees this later
    // subscription, a stale one sent before it would have been seen too.
    await new Promise<void>((resolve) => setImmediate(resolve));
    collect(connection, 'repo-9');
    await fake.waitForSubscription('repo-9');

    const [stale, fresh] = asked.calls;
    assert.notEqual(stale?.[0], fresh?.[0]);
    assert.deepEqual(
      subscribeFrames('private-user-3').map((f) => f.socketId),
      [fresh?.[0]],
    );
    assert.equal(failures.count, 0);
  });

  it('after an abrupt drop, resubscribes every channel, then calls onReconnected once', async () => {
    const reconnected = new Calls<[Map<string, number>]>();
    const { connection } = connect({
      settings: { private: true },
      onReconnected: () => reconnected.fn(fake.subscriptions()),
    });
    collect(connection, 'job-10');
    collect(connection, 'job-11');
    collect(connection, 'user-1');
    const channels = ['private-job-10', 'private-job-11', 'private-user-1'];
    await fake.waitFor(() => channels.every((c) => fake.subscriptions().has(c)), 'three subscriptions');
    assert.equal(reconnected.count, 0, 'not called on the first connect');

    fake.dropAll();
    await reconnected.waitFor(1);
    assert.deepEqual([...(reconnected.calls[0]?.[0].keys() ?? [])].sort(), channels);

    fake.dropAll(4200);
    await reconnected.waitFor(2);
    assert.deepEqual([...fake.subscriptions().keys()].sort(), channels);
    assert.equal(reconnected.count, 2);
    assert.equal(fake.connections(), 1);
  });

  it('rides out an outage with backoff and recovers', async () => {
    const reconnected = new Calls<[]>();
    const { connection, logs } = connect({ onReconnected: reconnected.fn });
    const repo = collect(connection, 'repo-6');
    await fake.waitForSubscription('repo-6');

    fake.refuseConnections(true);
    fake.dropAll(4200);
    await fake.waitFor(() => fake.refusedCount() >= 3, 'three refused attempts');
    assert.notEqual(connection.state, 'connected');
    assert.ok(logs.records.some((r) => r.msg === 'Realtime connection still down; trying again'));

    fake.refuseConnections(false);
    await reconnected.waitFor(1);
    assert.equal(connection.state, 'connected');
    fake.trigger('repo-6', 'build:finished', { id: 6 });
    await repo.events.waitFor(1);
    assert.equal(reconnected.count, 1);
  });

  it('close() unsubscribes nothing noisily, leaves no connection and ignores later calls', async () => {
    const reconnected = new Calls<[]>();
    const { connection } = connect({ onReconnected: reconnected.fn });
    const repo = collect(connection, 'repo-7');
    await fake.waitForSubscription('repo-7');

    connection.close();
    connection.close();
    await fake.waitFor(() => fake.connections() === 0, 'the connection to close');
    assert.equal(connection.state, 'disconnected');
    assert.equal(fake.trigger('repo-7', 'build:finished', {}), 0);
    repo.unsubscribe();
    const late = connection.subscribe('repo-8', () => {});
    late();
    assert.equal(reconnected.count, 0);
  });

  it('stops for good when the server refuses the app key (4001)', async () => {
    const { connection, logs } = connect({ settings: { key: 'unknown-key' } });
    await logs.waitFor((r) => r.level === ERROR && /refused the connection/.test(r.msg ?? ''), 'the refusal');
    assert.equal(connection.state, 'disconnected');
    const refusal = logs.records.find((r) => r.level === ERROR);
    assert.equal((refusal?.lastError as { code?: number })?.code, 4001);
    assert.equal(fake.connections(), 0);
  });
});
