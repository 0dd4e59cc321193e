import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { Redis } from 'ioredis';
import { Subscriptions } from '../../src/store/subscriptions.js';
import { makeMemoryKv, REDIS_URL, redisStores, scanAll } from './harness.js';
import { runNotifyPrefsContract } from './notify-prefs-contract.js';
import { runSubscriptionsContract } from './subscriptions-contract.js';

const stores = redisStores('subscriptions');
// A namespace of its own, so the key check below sees only its own store's keys.
const rawCheck = redisStores('subscriptions-raw');
after(() => Promise.all([stores.cleanup(), rawCheck.cleanup()]));

runSubscriptionsContract('MemoryKv', makeMemoryKv);
runSubscriptionsContract('RedisKv', stores.makeKv);
runNotifyPrefsContract('MemoryKv', makeMemoryKv);
runNotifyPrefsContract('RedisKv', stores.makeKv);

describe('Subscriptions on Redis', () => {
  it('writes only the keys of the README table, and leaves none behind once unsubscribed', async (t) => {
    const { kv } = await rawCheck.makeKv(t);
    const subs = new Subscriptions(kv);
    const prefix = `${rawCheck.namespace}0:`;
    const raw = new Redis(REDIS_URL);
    t.after(() => raw.quit());
    const base = {
      teamId: 'T1',
      channelId: 'C1',
      deployment: 'com' as const,
      filters: {},
      createdBy: 'U1',
    };
    await subs.upsert({ ...base, target: { kind: 'repo', repoId: 7, slug: 'a/b' } });
    const owner = await subs.upsert({
      ...base,
      target: { kind: 'owner', owner: 'a', repos: [{ id: 7, slug: 'a/b' }] },
    });
    await subs.pause(owner.subscription.id, 'token_rejected');
    await subs.upsert({ ...base, createdBy: 'U2', target: { kind: 'owner', owner: 'a', repos: [] } });

    const keys = (await scanAll(raw, rawCheck.namespace)).flat();
    assert.ok(keys.length > 0 && keys.every((k) => k.startsWith(prefix)));
    const relative = keys.map((k) => k.slice(prefix.length)).sort();
    for (const key of relative) {
      assert.match(
        key,
        /^(sub:[\w-]+|sub-repos:[\w-]+:[\w-]+|sub-paused:[\w-]+:[\w-]+|subs-channel:T1:C1|subs-creator:T1:U[12]|subs-deployment:com|subs-repo:com:7)$/,
      );
    }
    assert.ok(!relative.some((k) => k.startsWith('sub-paused:')), 'a re-subscribe drops the old pause');
    assert.ok(
      !relative.some((k) => k.startsWith('sub-repos:')),
      'an owner with no repositories keeps no list',
    );

    await subs.remove('T1', 'C1', 'com', { kind: 'repo', repoId: 7 });
    await subs.remove('T1', 'C1', 'com', { kind: 'owner', owner: 'a' });
    assert.deepEqual((await scanAll(raw, prefix)).flat(), []);
  });
});
