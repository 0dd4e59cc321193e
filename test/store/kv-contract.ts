import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { StoreUnavailableError } from '../../src/store/kv.js';
import type { MakeKv } from './harness.js';

/** TTL long enough never to run out during a test, even on a slow machine. */
const LONG = 60_000;
/** TTL short enough to wait out in real time (Redis) without slowing the suite. */
const SHORT = 80;

/** The behaviour every `Kv` implementation promises; run against each one. */
export function runKvContract(name: string, makeKv: MakeKv): void {
  describe(`Kv contract: ${name}`, () => {
    it('gets, sets, overwrites and deletes strings', async (t) => {
      const { kv } = await makeKv(t);
      assert.equal(await kv.get('a'), null);
      assert.equal(await kv.set('a', 'one'), true);
      assert.equal(await kv.get('a'), 'one');
      assert.equal(await kv.set('a', 'two'), true);
      assert.equal(await kv.get('a'), 'two');
      assert.equal(await kv.del('a'), true);
      assert.equal(await kv.del('a'), false);
      assert.equal(await kv.get('a'), null);
    });

    it('keeps any text intact, including empty and non-ASCII values', async (t) => {
      const { kv } = await makeKv(t);
      for (const value of ['', 'ü ✓ 𝄞', '{"json":[1,2]}', 'line\nbreak']) {
        await kv.set('text', value);
        assert.equal(await kv.get('text'), value);
      }
    });

    it('reads several keys at once with mget', async (t) => {
      const { kv } = await makeKv(t);
      await kv.set('m1', 'x');
      await kv.set('m3', 'z');
      assert.deepEqual(await kv.mget(['m1', 'm2', 'm3']), ['x', null, 'z']);
      assert.deepEqual(await kv.mget([]), []);
    });

    it('reports TTLs with pttl: -2 when missing, -1 without expiry, else the time left', async (t) => {
      const { kv } = await makeKv(t);
      assert.equal(await kv.pttl('p'), -2);
      await kv.set('p', 'v');
      assert.equal(await kv.pttl('p'), -1);
      await kv.set('p', 'v', { ttlMs: LONG });
      const left = await kv.pttl('p');
      assert.ok(left > LONG - 5_000 && left <= LONG, `pttl ${left}`);
      await kv.set('p', 'v2');
      assert.equal(await kv.pttl('p'), -1, 'a plain set clears an earlier TTL, as in Redis');
    });

    it('expires keys after their TTL', async (t) => {
      const { kv, passTime } = await makeKv(t);
      await kv.set('short', 'v', { ttlMs: SHORT });
      await kv.set('long', 'v', { ttlMs: LONG });
      await passTime(SHORT + 40);
      assert.equal(await kv.get('short'), null);
      assert.equal(await kv.pttl('short'), -2);
      assert.deepEqual(await kv.mget(['short', 'long']), [null, 'v']);
      assert.equal(await kv.del('short'), false);
    });

    it('writes with ifAbsent only when the key does not exist (or has expired)', async (t) => {
      const { kv, passTime } = await makeKv(t);
      assert.equal(await kv.set('n', 'first', { ifAbsent: true }), true);
      assert.equal(await kv.set('n', 'second', { ifAbsent: true }), false);
      assert.equal(await kv.get('n'), 'first');

      assert.equal(await kv.set('nt', 'first', { ifAbsent: true, ttlMs: SHORT }), true);
      assert.equal(await kv.set('nt', 'second', { ifAbsent: true, ttlMs: SHORT }), false);
      await passTime(SHORT + 40);
      assert.equal(await kv.set('nt', 'third', { ifAbsent: true, ttlMs: LONG }), true);
      assert.equal(await kv.get('nt'), 'third');
      assert.ok((await kv.pttl('nt')) > SHORT);
    });

    it('increments atomically and sets the TTL only when incr creates the key', async (t) => {
      const { kv, passTime } = await makeKv(t);
      assert.equal(await kv.incr('plain'), 1);
      assert.equal(await kv.incr('plain'), 2);
      assert.equal(await kv.pttl('plain'), -1);

      assert.equal(await kv.incr('window', LONG), 1);
      assert.equal(await kv.incr('window', 10 * LONG), 2);
      assert.ok((await kv.pttl('window')) <= LONG, 'a later incr does not reset the TTL');
      assert.equal(await kv.incr('window'), 3);
      assert.ok((await kv.pttl('window')) > 0, 'incr without a TTL keeps the existing one');

      assert.equal(await kv.incr('brief', SHORT), 1);
      await passTime(SHORT + 40);
      assert.equal(await kv.incr('brief', LONG), 1, 'an expired counter starts again');

      await kv.set('counted', '41');
      assert.equal(await kv.incr('counted'), 42);
      assert.equal(await kv.get('counted'), '42');
    });

    it('rejects incr of a value that is not an integer', async (t) => {
      const { kv } = await makeKv(t);
      await kv.set('word', 'abc');
      await assert.rejects(kv.incr('word'), StoreUnavailableError);
      assert.equal(await kv.get('word'), 'abc');
    });

    it('stores hash fields', async (t) => {
      const { kv } = await makeKv(t);
      assert.equal(await kv.hget('h', 'f'), null);
      assert.deepEqual(await kv.hgetall('h'), {});
      await kv.hset('h', 'f', '1');
      await kv.hset('h', 'g', '2');
      await kv.hset('h', 'f', '3');
      assert.equal(await kv.hget('h', 'f'), '3');
      assert.deepEqual(await kv.hgetall('h'), { f: '3', g: '2' });
      assert.equal(await kv.hdel('h', 'f'), true);
      assert.equal(await kv.hdel('h', 'f'), false);
      assert.equal(await kv.hdel('missing', 'f'), false);
      assert.deepEqual(await kv.hgetall('h'), { g: '2' });
      assert.equal(await kv.hdel('h', 'g'), true);
      assert.equal(await kv.pttl('h'), -2, 'removing the last field removes the key');
    });

    it('stores set members', async (t) => {
      const { kv } = await makeKv(t);
      assert.deepEqual(await kv.smembers('s'), []);
      assert.equal(await kv.sadd('s', 'a'), true);
      assert.equal(await kv.sadd('s', 'a'), false);
      assert.equal(await kv.sadd('s', 'b'), true);
      assert.deepEqual((await kv.smembers('s')).sort(), ['a', 'b']);
      assert.equal(await kv.srem('s', 'a'), true);
      assert.equal(await kv.srem('s', 'a'), false);
      assert.equal(await kv.srem('missing', 'a'), false);
      assert.deepEqual(await kv.smembers('s'), ['b']);
      await kv.srem('s', 'b');
      assert.equal(await kv.pttl('s'), -2, 'removing the last member removes the key');
    });

    it('rejects a command on a key of another type', async (t) => {
      const { kv } = await makeKv(t);
      await kv.set('str', 'v');
      await kv.hset('hash', 'f', 'v');
      await assert.rejects(kv.hget('str', 'f'), StoreUnavailableError);
      await assert.rejects(kv.sadd('str', 'm'), StoreUnavailableError);
      await assert.rejects(kv.get('hash'), StoreUnavailableError);
      assert.deepEqual(await kv.mget(['hash', 'str']), [null, 'v'], 'mget reads other types as null');
      assert.equal(await kv.set('hash', 'now a string'), true, 'set replaces a key of any type');
      assert.equal(await kv.get('hash'), 'now a string');
    });

    it('renews a key only for its owner', async (t) => {
      const { kv, passTime } = await makeKv(t);
      assert.equal(await kv.renewIfOwner('lease', 'me', LONG), false, 'nothing to renew');
      await kv.set('lease', 'me', { ttlMs: SHORT });
      assert.equal(await kv.renewIfOwner('lease', 'you', LONG), false);
      assert.ok((await kv.pttl('lease')) <= SHORT, 'a refused renew leaves the TTL alone');
      assert.equal(await kv.renewIfOwner('lease', 'me', LONG), true);
      assert.ok((await kv.pttl('lease')) > SHORT);
      assert.equal(await kv.get('lease'), 'me');

      assert.equal(await kv.renewIfOwner('lease', 'me', SHORT), true);
      await passTime(SHORT + 40);
      assert.equal(await kv.renewIfOwner('lease', 'me', LONG), false, 'an expired lease cannot be renewed');
      assert.equal(await kv.get('lease'), null);
    });

    it('deletes a key only for its owner', async (t) => {
      const { kv } = await makeKv(t);
      assert.equal(await kv.deleteIfOwner('lease', 'me'), false);
      await kv.set('lease', 'me', { ttlMs: LONG });
      assert.equal(await kv.deleteIfOwner('lease', 'you'), false);
      assert.equal(await kv.get('lease'), 'me');
      assert.equal(await kv.deleteIfOwner('lease', 'me'), true);
      assert.equal(await kv.get('lease'), null);
      assert.equal(await kv.deleteIfOwner('lease', 'me'), false);
    });

    it('replaces a value only while it is still the expected one', async (t) => {
      const { kv } = await makeKv(t);
      assert.equal(await kv.replaceIfEquals('cas', 'a', 'b'), false, 'nothing to replace');
      assert.equal(await kv.get('cas'), null, 'a failed replace creates nothing');
      await kv.set('cas', 'a');
      assert.equal(await kv.replaceIfEquals('cas', 'x', 'b'), false);
      assert.equal(await kv.get('cas'), 'a');
      assert.equal(await kv.replaceIfEquals('cas', 'a', 'b', LONG), true);
      assert.equal(await kv.get('cas'), 'b');
      assert.ok((await kv.pttl('cas')) > SHORT, 'the TTL given is set');
      await kv.hset('hash', 'f', 'a');
      await assert.rejects(kv.replaceIfEquals('hash', 'a', 'b'), { name: 'StoreUnavailableError' });
    });

    it('lets exactly one of many concurrent compare-and-set writers with the same expectation win', async (t) => {
      const { kv, peer } = await makeKv(t);
      const other = await peer();
      await kv.set('cas-race', 'start');
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          (i % 2 === 0 ? kv : other).replaceIfEquals('cas-race', 'start', `w-${i}`),
        ),
      );
      const winners = results.flatMap((won, i) => (won ? [i] : []));
      assert.equal(winners.length, 1);
      assert.equal(await other.get('cas-race'), `w-${winners[0]}`);
    });

    it('lets exactly one of many concurrent ifAbsent writers win', async (t) => {
      const { kv, peer } = await makeKv(t);
      const other = await peer();
      const writers = Array.from({ length: 40 }, (_, i) =>
        (i % 2 === 0 ? kv : other).set('race', `writer-${i}`, { ifAbsent: true, ttlMs: LONG }),
      );
      const results = await Promise.all(writers);
      const winners = results.flatMap((won, i) => (won ? [i] : []));
      assert.equal(winners.length, 1);
      assert.equal(await other.get('race'), `writer-${winners[0]}`);
    });

    it('counts every one of many concurrent increments once', async (t) => {
      const { kv, peer } = await makeKv(t);
      const other = await peer();
      const results = await Promise.all(
        Array.from({ length: 40 }, (_, i) => (i % 2 === 0 ? kv : other).incr('hits', LONG)),
      );
      assert.deepEqual(
        results.sort((a, b) => a - b),
        Array.from({ length: 40 }, (_, i) => i + 1),
      );
      assert.ok((await kv.pttl('hits')) > 0);
    });

    it('refuses TTLs that are not whole positive milliseconds', async (t) => {
      const { kv } = await makeKv(t);
      for (const ttlMs of [0, -5, 1.5, Number.NaN]) {
        await assert.rejects(kv.set('bad', 'v', { ttlMs }), RangeError);
        await assert.rejects(kv.incr('bad', ttlMs), RangeError);
        await assert.rejects(kv.renewIfOwner('bad', 'me', ttlMs), RangeError);
      }
      assert.equal(await kv.get('bad'), null);
    });

    it('answers ping while open and rejects every call after close', async (t) => {
      const { kv } = await makeKv(t);
      await kv.ping();
      await kv.close();
      await assert.rejects(kv.ping(), StoreUnavailableError);
      await assert.rejects(kv.get('a'), StoreUnavailableError);
      await assert.rejects(kv.set('a', 'v'), StoreUnavailableError);
      await kv.close(); // closing twice is harmless
    });
  });
}
