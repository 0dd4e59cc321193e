import type { Config } from '../config.js';
import type { Logger } from '../log.js';
import type { Kv } from './kv.js';
import { MemoryKv } from './memory-kv.js';
import { createRedis, RedisKv } from './redis-kv.js';

/** Every key the app writes to Redis starts with this. */
export const KEY_PREFIX = 'ci-slack:';

/** Redis when REDIS_URL is set; otherwise an in-process store, with a warning of what that means. */
export function createKv(config: Config, logger: Logger): { kv: Kv; kind: 'redis' | 'memory' } {
  if (config.redisUrl) {
    return { kv: new RedisKv(createRedis(config.redisUrl, logger), { prefix: KEY_PREFIX }), kind: 'redis' };
  }
  logger.warn(
    'REDIS_URL is not set: all state (linked CI accounts, subscriptions, build threads) lives in this one ' +
      'process and is lost on every restart, and running a second replica would split it. ' +
      'Set REDIS_URL for anything beyond a quick trial.',
  );
  return { kv: new MemoryKv(), kind: 'memory' };
}
