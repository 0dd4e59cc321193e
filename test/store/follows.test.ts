import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type FollowRecord, Follows, followId } from '../../src/store/follows.js';
import { type MakeKv, makeMemoryKv, redisStores } from './harness.js';

const stores = redisStores('follows');
after(() => stores.cleanup());

const where = { deployment: 'com' as const, jobId: 7, teamId: 'T1', channelId: 'C1' };
const record: FollowRecord = {
  id: followId(where),
  ...where,
  userId: 'U1',
  slug: 'rails/rails',
  jobNumber: '12.3',
  startedAt: '2030-01-01T00:00:00.000Z',
};

function contract(name: string, makeKv: MakeKv): void {
  describe(`Follows: ${name}`, () => {
    it('claims a follow once across replicas, lists it, keeps where its tail went, and forgets it', async (t) => {
      const { kv, peer } = await makeKv(t);
      const replicas = [new Follows(kv), new Follows(await peer())];
      const claims = await Promise.all(replicas.map((r) => r.claim(record)));
      assert.deepEqual(claims.sort(), [false, true], 'one claim per job and channel');
      assert.deepEqual(await replicas[1]?.ids(), [record.id]);
      const posted = { ...record, threadTs: '1700000000.000100', messageTs: '1700000000.000200' };
      await replicas[0]?.save(posted);
      assert.deepEqual(await replicas[1]?.get(record.id), posted);
      await replicas[1]?.remove(record.id);
      assert.equal(await replicas[0]?.get(record.id), undefined);
      assert.deepEqual(await replicas[0]?.ids(), []);
    });

    it('reads a record that does not parse as absent', async (t) => {
      const { kv } = await makeKv(t);
      await kv.set(`follow:${record.id}`, '{"v":1,"id":"x"}');
      assert.equal(await new Follows(kv).get(record.id), undefined);
      await kv.set(`follow:${record.id}`, 'not json');
      assert.equal(await new Follows(kv).get(record.id), undefined);
    });

    it('keys a follow by deployment, job, team and channel', () => {
      assert.equal(followId(where), 'com:7:T1:C1');
      assert.notEqual(followId({ ...where, channelId: 'C2' }), followId(where));
    });
  });
}

contract('memory', makeMemoryKv);
contract('redis', stores.makeKv);
