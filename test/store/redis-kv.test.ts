import assert from 'node:assert/strict';
import { randomUUID } from 'node:crypto';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { StoreUnavailableError } from '../../src/store/kv.js';
import { REDIS_URL, redisStores, scanAll } from './harness.js';
import { runKvContract } from './kv-contract.js';

const stores = redisStores('redis-kv');
after(() => stores.cleanup());

runKvContract('RedisKv', stores.makeKv);

describe('RedisKv', () => {
  it('writes every key under its prefix and nowhere else', async (t) => {
    const { kv } = await stores.makeKv(t);
    const raw = new Redis(REDIS_URL);
    t.after(() => raw.quit());
    const names = ['plain', 'hash', 'set', 'counter'].map((n) => `${n}-${randomUUID()}`);
    const [plain = '', hash = '', set = '', counter = ''] = names;
    await kv.set(plain, 'v');
    await kv.hset(hash, 'f', 'v');
    await kv.sadd(set, 'm');
    await kv.incr(counter, 60_000);
    const keys = (await scanAll(raw, stores.namespace)).flat();
    const prefixes: string[] = [];
    for (const name of names) {
      const [full, ...others] = keys.filter((k) => k.endsWith(name));
      assert.ok(full !== undefined && others.length === 0, `one key for ${name}`);
      assert.equal(await raw.exists(name), 0, 'nothing written without the prefix');
      prefixes.push(full.slice(0, -name.length));
    }
    assert.equal(new Set(prefixes).size, 1, 'one store, one prefix');
    assert.ok(prefixes[0]?.startsWith(stores.namespace));
  });

  it('keeps the Redis error as the cause of StoreUnavailableError', async (t) => {
    const { kv } = await stores.makeKv(t);
    await kv.set('str', 'v');
    const error = await kv.hget('str', 'f').then(
      () => assert.fail('expected a rejection'),
      (e: unknown) => e,
    );
    assert.ok(error instanceof StoreUnavailableError);
    assert.equal(error.code, 'store_unavailable');
    assert.ok(error.cause instanceof Error);
    assert.match(error.cause.message, /WRONGTYPE/);
  });
});
