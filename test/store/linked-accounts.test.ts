import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { LinkedAccounts } from '../../src/store/linked-accounts.js';
import { TokenCipher } from '../../src/store/token-cipher.js';
import { makeMemoryKv, REDIS_URL, redisStores, scanAll } from './harness.js';
import { runLinkedAccountsContract, TOKEN } from './linked-accounts-contract.js';

const stores = redisStores('linked-accounts');
// A namespace of its own: the contract above writes plain tokens on purpose (as corrupt records).
const rawCheck = redisStores('linked-accounts-raw');
after(() => Promise.all([stores.cleanup(), rawCheck.cleanup()]));

runLinkedAccountsContract('MemoryKv', makeMemoryKv);
runLinkedAccountsContract('RedisKv', stores.makeKv);

/** Every key name and stored value under `prefix`, read with a separate client. */
async function dumpRaw(redis: Redis, prefix: string): Promise<string[]> {
  const texts: string[] = [];
  for (const key of (await scanAll(redis, prefix)).flat()) {
    texts.push(key);
    const type = await redis.type(key);
    if (type === 'string') texts.push((await redis.get(key)) ?? '');
    else if (type === 'hash') texts.push(...Object.entries(await redis.hgetall(key)).flat());
    else if (type === 'set') texts.push(...(await redis.smembers(key)));
    else assert.fail(`unexpected ${type} at ${key}`);
  }
  return texts;
}

describe('LinkedAccounts on Redis', () => {
  it('never stores a linked token in plain text, in any key or value', async (t) => {
    const { kv } = await rawCheck.makeKv(t);
    const accounts = new LinkedAccounts(kv, new TokenCipher([Buffer.alloc(32, 3)]));
    await accounts.link({
      teamId: 'T1',
      userId: 'U1',
      deployment: 'com',
      ciLogin: 'a',
      ciUserId: 1,
      token: TOKEN,
    });
    await accounts.link({
      teamId: 'T1',
      userId: 'U1',
      deployment: 'org',
      ciLogin: 'a',
      ciUserId: 1,
      token: TOKEN,
    });
    assert.equal(await accounts.token('T1', 'U1', 'com'), TOKEN);

    const raw = new Redis(REDIS_URL);
    t.after(() => raw.quit());
    const texts = await dumpRaw(raw, rawCheck.namespace);
    assert.ok(
      texts.some((text) => text.includes('"sealedToken":"v1.')),
      'the sealed record was read back',
    );
    const encodings = [TOKEN, Buffer.from(TOKEN).toString('base64'), Buffer.from(TOKEN).toString('hex')];
    for (const text of texts) {
      for (const encoded of encodings) assert.ok(!text.includes(encoded), 'plain token found in Redis');
      assert.ok(!text.includes(TOKEN.slice(4, 20)), 'a fragment of the token found in Redis');
    }
  });
});
