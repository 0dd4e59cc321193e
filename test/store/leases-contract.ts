import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { Leases } from '../../src/store/leases.js';
import type { MakeKv } from './harness.js';

const LONG = 60_000;
const SHORT = 80;

/** The behaviour of Leases, whatever Kv it runs on; two owners stand for two replicas. */
export function runLeasesContract(name: string, makeKv: MakeKv): void {
  describe(`Leases contract: ${name}`, () => {
    it('gives a lease to one owner at a time', async (t) => {
      const { kv, peer } = await makeKv(t);
      const a = new Leases(kv, 'replica-a');
      const b = new Leases(await peer(), 'replica-b');
      assert.equal(await a.acquire('poll', LONG), true);
      assert.equal(await b.acquire('poll', LONG), false);
      assert.equal(await a.acquire('poll', LONG), true, 'the holder may acquire again');
      assert.equal(await b.acquire('other', LONG), true, 'leases are independent by name');
    });

    it('renews and releases only for the holder', async (t) => {
      const { kv, peer } = await makeKv(t);
      const a = new Leases(kv, 'replica-a');
      const b = new Leases(await peer(), 'replica-b');
      assert.equal(await a.renew('poll', LONG), false, 'nothing held yet');
      assert.equal(await a.release('poll'), false);
      await a.acquire('poll', SHORT);
      assert.equal(await b.renew('poll', LONG), false);
      assert.equal(await b.release('poll'), false);
      assert.equal(await a.renew('poll', LONG), true);
      assert.ok((await kv.pttl('lease:poll')) > SHORT, 'renew extended the lease');
      assert.equal(await a.release('poll'), true);
      assert.equal(await b.acquire('poll', LONG), true, 'a released lease is free at once');
    });

    it('lets another owner take a lease whose holder stopped renewing', async (t) => {
      const { kv, peer, passTime } = await makeKv(t);
      const a = new Leases(kv, 'replica-a');
      const b = new Leases(await peer(), 'replica-b');
      await a.acquire('poll', SHORT);
      await passTime(SHORT + 40);
      assert.equal(await b.acquire('poll', LONG), true);
      assert.equal(await a.renew('poll', LONG), false, 'the old holder cannot extend it');
      assert.equal(await a.release('poll'), false, 'nor free it');
      assert.equal(await b.renew('poll', LONG), true);
    });

    it('grants a lease to exactly one of many owners racing for it', async (t) => {
      const { kv, peer } = await makeKv(t);
      const other = await peer();
      const owners = Array.from({ length: 20 }, (_, i) => new Leases(i % 2 ? kv : other, `replica-${i}`));
      const results = await Promise.all(owners.map((l) => l.acquire('poll', LONG)));
      assert.equal(results.filter(Boolean).length, 1);
      const winner = results.indexOf(true);
      assert.equal(await kv.get('lease:poll'), `replica-${winner}`);
    });

    it('tells who holds each lease without taking any', async (t) => {
      const { kv, peer } = await makeKv(t);
      const a = new Leases(kv, 'replica-a');
      const b = new Leases(await peer(), 'replica-b');
      await a.acquire('one', LONG);
      await b.acquire('three', LONG);
      const names = Array.from({ length: 1_200 }, (_, i) => `n${i}`);
      await a.acquire('n1100', LONG);
      assert.deepEqual(await b.holders(['one', 'two', 'three']), ['replica-a', null, 'replica-b']);
      const many = await b.holders(names);
      assert.equal(many.length, 1_200, 'read in batches, in order');
      assert.deepEqual(
        many.flatMap((owner, i) => (owner ? [[i, owner]] : [])),
        [[1100, 'replica-a']],
      );
      assert.equal(await b.acquire('two', LONG), true, 'asking took nothing');
    });

    it('refuses an empty owner id', async (t) => {
      const { kv } = await makeKv(t);
      assert.throws(() => new Leases(kv, ''), RangeError);
    });
  });
}
