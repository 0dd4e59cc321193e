import assert from 'node:assert/strict';
import { after, describe, it } from 'node:test';
import { type BuildProgress, isStale, snapshotOf } from '../../src/notify/snapshot.js';
import { NotifyState } from '../../src/store/notify-state.js';
import { railsBuild } from '../helpers/view-data.js';
import { type MakeKv, makeMemoryKv, redisStores } from './harness.js';

const stores = redisStores('notify-state');
after(() => stores.cleanup());

const finished = (number: number, state: string) => ({
  number: String(number),
  buildId: 1000 + number,
  state,
});

function contract(name: string, makeKv: MakeKv): void {
  describe(`NotifyState: ${name}`, () => {
    it('answers the nearest earlier finished build of the same origin, skipping canceled ones', async (t) => {
      const state = new NotifyState((await makeKv(t)).kv);
      assert.equal(await state.recordFinished('com', 1, 'branch:main', finished(3, 'passed')), undefined);
      assert.equal(await state.recordFinished('com', 1, 'branch:main', finished(5, 'canceled')), 'passed');
      assert.equal(await state.recordFinished('com', 1, 'branch:dev', finished(6, 'failed')), undefined);
      assert.equal(await state.recordFinished('com', 1, 'branch:main', finished(7, 'failed')), 'passed');
      // A build seen late, and a restart of it: compared with what came before it, never itself.
      assert.equal(await state.recordFinished('com', 1, 'branch:main', finished(4, 'errored')), 'passed');
      assert.equal(await state.recordFinished('com', 1, 'branch:main', finished(4, 'passed')), 'passed');
      assert.equal(await state.recordFinished('com', 1, 'branch:main', finished(7, 'failed')), 'passed');
      assert.equal(await state.recordFinished('com', 2, 'branch:main', finished(8, 'failed')), undefined);
      assert.equal(await state.recordFinished('org', 1, 'branch:main', finished(8, 'failed')), undefined);
    });

    it('keeps a few builds per origin', async (t) => {
      const { kv } = await makeKv(t);
      const state = new NotifyState(kv);
      for (let n = 1; n <= 12; n++)
        await state.recordFinished('com', 3, 'branch:a:b\nc', finished(n, 'passed'));
      const fields = Object.keys(await kv.hgetall('notify-history:com:3'));
      assert.equal(fields.length, 5);
      assert.equal(await state.recordFinished('com', 3, 'branch:a:b\nc', finished(13, 'failed')), 'passed');
    });

    it('moves a build’s progress forward only, however many replicas write at once', async (t) => {
      const { kv, peer } = await makeKv(t);
      const replicas = [new NotifyState(kv), new NotifyState(await peer()), new NotifyState(await peer())];
      const created: BuildProgress = { state: 'created', started_at: null, finished_at: null };
      const started: BuildProgress = {
        state: 'started',
        started_at: '2030-01-01T10:00:00Z',
        finished_at: null,
      };
      const failed: BuildProgress = {
        state: 'failed',
        started_at: '2030-01-01T10:00:00Z',
        finished_at: '2030-01-01T10:05:00Z',
      };
      for (let round = 0; round < 5; round++) {
        const buildId = 500 + round;
        assert.equal(await replicas[0]?.advanceProgress('com', buildId, created, isStale), true);
        // Late and early sightings of one attempt, racing: whatever the order, the end stands.
        // (A `created` after the end would be a restart, so it is not part of the race.)
        const results = await Promise.all(
          [started, failed, started, failed, started, failed].map((step, i) =>
            replicas[i % replicas.length]?.advanceProgress('com', buildId, step, isStale),
          ),
        );
        assert.ok(results.includes(true));
        assert.deepEqual(await replicas[0]?.progress('com', buildId), failed, 'the end stands');
        assert.equal(await replicas[1]?.advanceProgress('com', buildId, started, isStale), false);
        assert.equal(
          await replicas[2]?.advanceProgress('com', buildId, created, isStale),
          true,
          'waiting again after the end is a restart',
        );
      }
    });

    it('lets one replica claim a failure reply per attempt, and gives a failed claim back', async (t) => {
      const { kv, peer } = await makeKv(t);
      const a = new NotifyState(kv);
      const b = new NotifyState(await peer());
      const slot = {
        deployment: 'com' as const,
        buildId: 9,
        attempt: '2030-01-01T10:05:00Z',
        teamId: 'T',
        channelId: 'C',
      };
      const claims = await Promise.all([a.claimLogReply(slot, 60_000), b.claimLogReply(slot, 60_000)]);
      assert.deepEqual(claims.sort(), [false, true]);
      await a.releaseLogReply(slot);
      assert.equal(await b.claimLogReply(slot, 60_000), true);
      await b.logReplyPosted(slot);
      await a.releaseLogReply(slot);
      assert.equal(await a.claimLogReply(slot, 60_000), false, 'a posted reply is never claimed again');
      assert.equal(await a.claimLogReply({ ...slot, attempt: '2030-01-01T11:00:00Z' }, 60_000), true);
    });

    it('keeps pending notifications and hands-over snapshots, dropping what does not parse', async (t) => {
      const { kv } = await makeKv(t);
      const state = new NotifyState(kv);
      const { build, commit, jobs } = railsBuild();
      const snapshot = snapshotOf({
        deployment: 'com',
        repo: { id: 891, slug: 'rails/rails' },
        build,
        commit,
        jobs,
        source: 'poll',
      });
      await state.addPending('com:4125095', { since: '2030-01-01T10:00:00.000Z', snapshot });
      await kv.hset('notify-pending', 'com:1', '{"not":"a snapshot"}');
      const pending = await state.pending();
      assert.deepEqual([...pending.keys()], ['com:4125095']);
      assert.equal(pending.get('com:4125095')?.snapshot.build.id, 4125095);
      assert.deepEqual(Object.keys(await kv.hgetall('notify-pending')), ['com:4125095']);
      await state.removePending('com:4125095');
      assert.equal((await state.pending()).size, 0);

      assert.equal(await state.loadSnapshot('com', 4125095), undefined);
      await state.saveSnapshot(snapshot);
      assert.equal((await state.loadSnapshot('com', 4125095))?.jobs.length, 12);
    });
  });
}

contract('memory', makeMemoryKv);
contract('redis', stores.makeKv);
