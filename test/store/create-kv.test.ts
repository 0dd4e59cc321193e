import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { describe, it } from 'node:test';
import { loadConfig } from '../../src/config.js';
import { createKv } from '../../src/store/create-kv.js';
import { MemoryKv } from '../../src/store/memory-kv.js';
import { createRedis, RedisKv } from '../../src/store/redis-kv.js';
import { REDIS_URL } from './harness.js';
import { captureLogs } from './linked-accounts-contract.js';

const base = { SLACK_BOT_TOKEN: 'xoxb-1-2-abc', SLACK_SIGNING_SECRET: 'shh' };

describe('createKv', () => {
  it('uses memory without REDIS_URL and warns loudly what that means', async () => {
    const { logger, lines } = captureLogs();
    const { kv, kind } = createKv(loadConfig(base), logger);
    assert.equal(kind, 'memory');
    assert.ok(kv instanceof MemoryKv);
    await kv.ping();
    await kv.close();
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.level, 40);
    assert.match(String(lines[0]?.msg), /one\s+process/);
    assert.match(String(lines[0]?.msg), /restart/);
  });

  it('uses Redis when REDIS_URL is set', async () => {
    const { logger, lines } = captureLogs();
    const config = loadConfig({
      ...base,
      REDIS_URL,
      TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
    });
    const { kv, kind } = createKv(config, logger);
    assert.equal(kind, 'redis');
    assert.ok(kv instanceof RedisKv);
    await kv.ping();
    await kv.close();
    assert.deepEqual(lines, [], 'no warning with Redis');
  });
});

describe('createRedis', () => {
  it('logs an unreachable server once, without the password in the URL', async () => {
    const server = createServer(); // take a port, then free it so that nothing listens there
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const address = server.address();
    await new Promise((resolve) => server.close(resolve));
    assert.ok(address && typeof address === 'object');

    const { logger, lines } = captureLogs();
    const redis = createRedis(`redis://user:s3cr3t-pw@127.0.0.1:${address.port}`, logger);
    const kv = new RedisKv(redis, { prefix: 'unused:', timeoutMs: 50 });
    // Several reconnect attempts fail while this waits.
    await new Promise<void>((resolve) => {
      let attempts = 0;
      redis.on('reconnecting', () => {
        if (++attempts === 2) resolve();
      });
    });
    await kv.close();
    assert.equal(lines.length, 1);
    assert.equal(lines[0]?.redis, `redis://127.0.0.1:${address.port}`);
    assert.ok(!JSON.stringify(lines).includes('s3cr3t-pw'));
  });
});
