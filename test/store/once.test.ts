import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { forgetOnce, once } from '../../src/store/once.js';
import { type MakeKv, makeMemoryKv, redisStores } from './harness.js';

const stores = redisStores('once');
after(() => stores.cleanup());

for (const [name, makeKv] of [
  ['MemoryKv', makeMemoryKv],
  ['RedisKv', stores.makeKv],
] as [string, MakeKv][]) {
  describe(`once: ${name}`, () => {
    it('is true the first time a key is claimed and false after', async (t) => {
      const { kv } = await makeKv(t);
      assert.equal(await once(kv, 'event:Ev1', 60_000), true);
      assert.equal(await once(kv, 'event:Ev1', 60_000), false);
      assert.equal(await once(kv, 'event:Ev2', 60_000), true);
      assert.equal(await kv.get('event:Ev1'), null, 'claims live in their own namespace');
    });

    it('forgets a claim after its TTL', async (t) => {
      const { kv, passTime } = await makeKv(t);
      assert.equal(await once(kv, 'event:Ev1', 80), true);
      await passTime(120);
      assert.equal(await once(kv, 'event:Ev1', 80), true);
    });

    it('can give a claim back so the next one succeeds', async (t) => {
      const { kv } = await makeKv(t);
      assert.equal(await once(kv, 'event:Ev4', 60_000), true);
      await forgetOnce(kv, 'event:Ev4');
      assert.equal(await once(kv, 'event:Ev4', 60_000), true);
      assert.equal(await once(kv, 'event:Ev4', 60_000), false);
    });

    it('lets exactly one of many concurrent claims through', async (t) => {
      const { kv, peer } = await makeKv(t);
      const other = await peer();
      const claims = await Promise.all(
        Array.from({ length: 30 }, (_, i) => once(i % 2 ? kv : other, 'event:Ev3', 60_000)),
      );
      assert.equal(claims.filter(Boolean).length, 1);
    });
  });
}
