import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import type { Redis } from 'ioredis';
import { type Kv, StoreUnavailableError } from '../../src/store/kv.js';
import { createRedis, RedisKv } from '../../src/store/redis-kv.js';
import { freePort, startRedis, stop } from '../helpers/own-redis.js';
import { captureLogs } from './linked-accounts-contract.js';

/** Every Kv method but close, each called once. */
const CALLS: [string, (kv: Kv) => Promise<unknown>][] = [
  ['get', (kv) => kv.get('k')],
  ['mget', (kv) => kv.mget(['k', 'j'])],
  ['set', (kv) => kv.set('k', 'v', { ttlMs: 1_000, ifAbsent: true })],
  ['del', (kv) => kv.del('k')],
  ['pttl', (kv) => kv.pttl('k')],
  ['incr', (kv) => kv.incr('n', 1_000)],
  ['hget', (kv) => kv.hget('h', 'f')],
  ['hset', (kv) => kv.hset('h', 'f', 'v')],
  ['hdel', (kv) => kv.hdel('h', 'f')],
  ['hgetall', (kv) => kv.hgetall('h')],
  ['sadd', (kv) => kv.sadd('s', 'm')],
  ['srem', (kv) => kv.srem('s', 'm')],
  ['smembers', (kv) => kv.smembers('s')],
  ['renewIfOwner', (kv) => kv.renewIfOwner('l', 'me', 1_000)],
  ['deleteIfOwner', (kv) => kv.deleteIfOwner('l', 'me')],
  ['ping', (kv) => kv.ping()],
];

const BUDGET_MS = 2_500;

/** Unlike events.once, does not reject on the 'error' events a reconnecting client emits. */
function nextEvent(emitter: Redis, name: 'ready' | 'reconnecting'): Promise<void> {
  return new Promise((resolve) => emitter.once(name, () => resolve()));
}

/** Calls every method at once; each must reject with StoreUnavailableError within the budget. */
async function expectAllUnavailable(kv: Kv): Promise<void> {
  await Promise.all(
    CALLS.map(async ([name, call]) => {
      const started = performance.now();
      const error = await call(kv).then(
        () => assert.fail(`${name} succeeded while Redis was down`),
        (e: unknown) => e,
      );
      const elapsed = performance.now() - started;
      assert.ok(error instanceof StoreUnavailableError, `${name} rejected with ${String(error)}`);
      assert.ok(elapsed < BUDGET_MS, `${name} took ${Math.round(elapsed)} ms`);
    }),
  );
}

describe('RedisKv when Redis goes away', { timeout: 20_000 }, () => {
  let port = 0;
  let server: ChildProcess | undefined;
  let redis: Redis;
  let kv: RedisKv;
  const logs = captureLogs();
  logs.logger.level = 'info';

  before(async () => {
    port = await freePort();
  });

  after(async () => {
    await kv?.close();
    if (server) await stop(server, 'SIGKILL');
  });

  it('fails fast while Redis has not come up yet, then connects when it does', async () => {
    redis = createRedis(`redis://127.0.0.1:${port}`, logs.logger);
    kv = new RedisKv(redis, { prefix: 'down-test:' });
    const quick = new RedisKv(redis, { prefix: 'down-test:', timeoutMs: 200 });
    const started = performance.now();
    await assert.rejects(quick.get('k'), StoreUnavailableError);
    assert.ok(performance.now() - started < 1_000);

    const waiting = kv.set('k', 'first'); // waits for the connection within its budget
    server = await startRedis(port);
    assert.equal(await waiting, true);
    assert.equal(await kv.get('k'), 'first');
  });

  it('rejects every call within the time budget when the server hangs', async () => {
    assert.ok(server);
    server.kill('SIGSTOP');
    try {
      await expectAllUnavailable(kv);
    } finally {
      server.kill('SIGCONT');
    }
    // Calls already sent (the del among them) still run once it answers; then it works normally.
    assert.equal(await kv.set('after-hang', 'v'), true);
    assert.equal(await kv.get('after-hang'), 'v');
  });

  it('rejects every call within the time budget when the server is killed, and reconnects on restart', async () => {
    assert.ok(server);
    const down = logs.lines.length;
    const noticed = nextEvent(redis, 'reconnecting');
    const killed = stop(server, 'SIGKILL');
    // Calls racing the kill (sent on the dying connection), and calls made once the client knows it is
    // down (these wait for a reconnect that does not come within their budget).
    const racing = expectAllUnavailable(kv);
    await killed;
    await noticed;
    await Promise.all([racing, expectAllUnavailable(kv)]);

    const reconnected = nextEvent(redis, 'ready');
    server = await startRedis(port);
    await reconnected;
    assert.equal(await kv.set('k', 'second'), true);
    assert.equal(await kv.get('k'), 'second');
    assert.equal(await kv.incr('n', 1_000), 1);

    const messages = logs.lines.slice(down).map((line) => line.msg);
    assert.equal(messages.filter((m) => String(m).startsWith('Redis is unreachable')).length, 1);
    assert.deepEqual(messages.at(-1), 'Redis connection restored');
  });
});
