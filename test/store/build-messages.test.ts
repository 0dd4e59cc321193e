import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { BuildMessages } from '../../src/store/build-messages.js';
import { type MakeKv, makeMemoryKv, redisStores } from './harness.js';

const stores = redisStores('build-messages');
after(() => stores.cleanup());

const slot = { deployment: 'com' as const, buildId: 42, teamId: 'T1', channelId: 'C1' };

function contract(name: string, makeKv: MakeKv): void {
  describe(`BuildMessages: ${name}`, () => {
    it('lets exactly one of several replicas claim a slot, then keeps the posted message', async (t) => {
      const { kv, peer } = await makeKv(t);
      const replicas = [
        new BuildMessages(kv),
        new BuildMessages(await peer()),
        new BuildMessages(await peer()),
      ];
      const claims = await Promise.all(replicas.map((r) => r.claim(slot, 60_000)));
      assert.equal(claims.filter(Boolean).length, 1);
      assert.equal(await replicas[1]?.get(slot), undefined, 'a claim alone is not a message');
      await replicas[claims.indexOf(true)]?.set(slot, { channel: 'C1', ts: '1700000000.000100' });
      assert.deepEqual(
        { ...(await replicas[2]?.get(slot)), postedAt: undefined },
        { channel: 'C1', ts: '1700000000.000100', postedAt: undefined },
      );
      assert.equal(await replicas[0]?.claim(slot, 60_000), false, 'a filled slot cannot be claimed');
    });

    it('frees a claim given back, but never a posted message', async (t) => {
      const { kv } = await makeKv(t);
      const messages = new BuildMessages(kv);
      assert.equal(await messages.claim(slot, 60_000), true);
      await messages.release(slot);
      assert.equal(await messages.claim(slot, 60_000), true);
      await messages.set(slot, { channel: 'C1', ts: '1.2' });
      await messages.release(slot);
      assert.equal((await messages.get(slot))?.ts, '1.2');
    });

    it('lets a claim lapse when its holder died before posting', async (t) => {
      const { kv, passTime } = await makeKv(t);
      const messages = new BuildMessages(kv);
      assert.equal(await messages.claim(slot, 50), true);
      await passTime(120);
      assert.equal(await messages.claim(slot, 50), true);
    });
  });
}

contract('MemoryKv', makeMemoryKv);
contract('RedisKv', stores.makeKv);
