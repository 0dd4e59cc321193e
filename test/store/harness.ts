import { randomUUID } from 'node:crypto';
import type { TestContext } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { Redis } from 'ioredis';
import { createLogger } from '../../src/log.js';
import type { Kv } from '../../src/store/kv.js';
import { MemoryKv } from '../../src/store/memory-kv.js';
import { createRedis, RedisKv } from '../../src/store/redis-kv.js';

export const REDIS_URL = 'redis://127.0.0.1:6379';

/** One store as a contract test sees it. */
export interface KvUnderTest {
  kv: Kv;
  /** Another handle on the same data, as a second replica would hold (Redis: another connection). */
  peer(): Promise<Kv>;
  /** Lets `ms` of store time pass: a fake clock moves, or real time goes by. */
  passTime(ms: number): Promise<void>;
}

/** Makes a fresh, empty store for one test and closes it when that test ends. */
export type MakeKv = (t: TestContext) => Promise<KvUnderTest>;

export const makeMemoryKv: MakeKv = async (t) => {
  let now = Date.parse('2030-01-01T00:00:00Z');
  const kv = new MemoryKv({ now: () => now });
  t.after(() => kv.close());
  return {
    kv,
    peer: async () => kv,
    passTime: async (ms) => {
      now += ms;
    },
  };
};

/**
 * Redis stores for one test file: every store gets its own prefix under a per-run namespace, and
 * `cleanup` (call it in `after`) deletes every key under that namespace, found by SCAN, and nothing else.
 */
export function redisStores(label: string): { makeKv: MakeKv; namespace: string; cleanup(): Promise<void> } {
  const namespace = `test:ci-slack:${label}:${randomUUID()}:`;
  let stores = 0;
  const silent = createLogger('silent');
  const makeKv: MakeKv = async (t) => {
    const prefix = `${namespace}${stores++}:`;
    const open = () => {
      const kv = new RedisKv(createRedis(REDIS_URL, silent), { prefix });
      t.after(() => kv.close());
      return kv;
    };
    return { kv: open(), peer: async () => open(), passTime: (ms) => sleep(ms) };
  };
  return { makeKv, namespace, cleanup: () => deleteUnder(namespace) };
}

export async function deleteUnder(namespace: string): Promise<void> {
  const redis = new Redis(REDIS_URL);
  try {
    for (const keys of await scanAll(redis, namespace)) if (keys.length > 0) await redis.del(...keys);
  } finally {
    await redis.quit();
  }
}

/** Every key under `prefix`, in SCAN batches. */
export async function scanAll(redis: Redis, prefix: string): Promise<string[][]> {
  const batches: string[][] = [];
  let cursor = '0';
  do {
    const [next, keys] = await redis.scan(cursor, 'MATCH', `${escapeGlob(prefix)}*`, 'COUNT', 500);
    batches.push(keys);
    cursor = next;
  } while (cursor !== '0');
  return batches;
}

function escapeGlob(text: string): string {
  return text.replace(/[*?[\]\\]/g, '\\$&');
}
