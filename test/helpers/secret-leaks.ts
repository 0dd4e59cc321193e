import { Redis } from 'ioredis';
import { REDIS_URL, scanAll } from '../store/harness.js';
import type { Harness } from './app-harness.js';

/**
 * Everywhere a secret could leak to from the app, as text: every Web API call to Slack, every
 * post to a response_url, every log line (when the harness captures logs) and every Redis key and
 * value under the harness's prefix. Tests assert that a secret occurs in none of them.
 */
export async function leakSurfaces(h: Harness): Promise<Record<string, string>> {
  return {
    'Slack Web API calls': JSON.stringify(h.slack.calls),
    'response_url posts': JSON.stringify(h.slack.responses),
    'log lines': h.logs.join('\n'),
    Redis: await redisDump(h.namespace),
  };
}

/** Fails naming the surface where any of the secrets shows up. */
export async function assertNotLeaked(h: Harness, secrets: readonly string[], acks: readonly string[] = []) {
  const surfaces = { ...(await leakSurfaces(h)), 'acknowledgements to Slack': acks.join('\n') };
  for (const [where, text] of Object.entries(surfaces)) {
    for (const secret of secrets) {
      if (text.includes(secret)) throw new Error(`a secret leaked into the ${where}`);
    }
  }
}

async function redisDump(prefix: string): Promise<string> {
  const redis = new Redis(REDIS_URL);
  try {
    const parts: string[] = [];
    for (const keys of await scanAll(redis, prefix)) {
      for (const key of keys) {
        parts.push(key);
        const type = await redis.type(key);
        if (type === 'string') parts.push((await redis.get(key)) ?? '');
        else if (type === 'hash') parts.push(JSON.stringify(await redis.hgetall(key)));
        else if (type === 'set') parts.push(JSON.stringify(await redis.smembers(key)));
        else if (type === 'list') parts.push(JSON.stringify(await redis.lrange(key, 0, -1)));
        else if (type === 'zset') parts.push(JSON.stringify(await redis.zrange(key, 0, -1)));
        else parts.push(JSON.stringify(await redis.dump(key)));
      }
    }
    return parts.join('\n');
  } finally {
    await redis.quit();
  }
}
