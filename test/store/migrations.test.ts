import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import {
  type MigrationBatch,
  MigrationBatches,
  type MigrationDraft,
} from '../../src/store/migration-batches.js';
import { MovedRepos } from '../../src/store/moved-repos.js';
import { type MakeKv, makeMemoryKv, redisStores } from './harness.js';

const stores = redisStores('migrations');
after(() => stores.cleanup());

const draft = (id: string): MigrationDraft => ({
  v: 1,
  id,
  teamId: 'T1',
  userId: 'U1',
  channelId: 'C1',
  from: 'org',
  to: 'com',
  repos: [{ ref: 'octo/app', oldId: 7 }, { ref: 42 }],
  createdAt: '2030-01-01T00:00:00.000Z',
});

const batch = (id: string): MigrationBatch => ({
  v: 1,
  id,
  teamId: 'T1',
  userId: 'U1',
  from: 'org',
  to: 'com',
  createdAt: '2030-01-01T00:00:00.000Z',
  repos: [{ ref: 'octo/app', slug: 'octo/app', status: 'pending', requests: 0, checks: 0 }],
});

function contract(name: string, makeKv: MakeKv): void {
  describe(`MigrationBatches and MovedRepos: ${name}`, () => {
    it('gives a draft to exactly one of several clicks, and forgets it when it lapses', async (t) => {
      const { kv, peer, passTime } = await makeKv(t);
      const replicas = [new MigrationBatches(kv), new MigrationBatches(await peer())];
      await replicas[0]?.saveDraft(draft('d1'));
      const taken = await Promise.all(replicas.map((r) => r.takeDraft('d1')));
      assert.equal(taken.filter((d) => d !== undefined).length, 1);
      assert.deepEqual(taken.find((d) => d !== undefined)?.repos, draft('d1').repos);

      await replicas[0]?.saveDraft(draft('d2'));
      assert.equal(await replicas[0]?.dropDraft('d2'), true);
      assert.equal(await replicas[1]?.takeDraft('d2'), undefined);
      if (name === 'MemoryKv') {
        await replicas[0]?.saveDraft(draft('d3'));
        await passTime(61 * 60_000);
        assert.equal(await replicas[0]?.takeDraft('d3'), undefined);
      }
    });

    it('lists open batches until they finish', async (t) => {
      const { kv } = await makeKv(t);
      const batches = new MigrationBatches(kv);
      await batches.create(batch('b1'));
      await batches.create(batch('b2'));
      assert.deepEqual((await batches.openIds()).sort(), ['b1', 'b2']);
      const done = { ...batch('b1'), finishedAt: '2030-01-01T00:01:00.000Z' };
      await batches.finish(done);
      assert.deepEqual(await batches.openIds(), ['b2']);
      assert.equal(await batches.isOpen('b1'), false);
      assert.equal((await batches.get('b1'))?.finishedAt, done.finishedAt);
    });

    it('reads a record it did not write as absent', async (t) => {
      const { kv } = await makeKv(t);
      await kv.set('migration:bad', '{"v":1,"id":"bad"}');
      await kv.set('moved:org:slug:octo%2Fbad', 'not json');
      assert.equal(await new MigrationBatches(kv).get('bad'), undefined);
      assert.equal(await new MovedRepos(kv).find('org', { slug: 'octo/bad' }), undefined);
    });

    it('claims the question about a subscription once, and again once given back', async (t) => {
      const { kv, peer } = await makeKv(t);
      const [a, b] = [new MigrationBatches(kv), new MigrationBatches(await peer())];
      const claims = await Promise.all([a.claimOffer('s1'), b.claimOffer('s1')]);
      assert.deepEqual(claims.sort(), [false, true]);
      await a.releaseOffer('s1');
      assert.equal(await b.claimOffer('s1'), true);
    });

    it('remembers a moved repository by slug without case, and by its old id', async (t) => {
      const { kv } = await makeKv(t);
      const moved = new MovedRepos(kv, () => new Date('2030-01-01T00:00:00Z'));
      await moved.remember('org', { slug: 'Octo/App', id: 7 }, 'com', 'migrated_by_app');
      assert.deepEqual(await moved.find('org', { slug: 'octo/app' }), {
        to: 'com',
        how: 'migrated_by_app',
        at: '2030-01-01T00:00:00.000Z',
      });
      assert.equal((await moved.find('org', { id: 7 }))?.to, 'com');
      assert.equal(await moved.find('com', { slug: 'octo/app' }), undefined, 'per deployment');
      assert.equal(await moved.find('org', { slug: 'octo/other', id: 8 }), undefined);
      assert.equal(await moved.find('org', {}), undefined);
    });
  });
}

contract('MemoryKv', makeMemoryKv);
contract('RedisKv', stores.makeKv);
