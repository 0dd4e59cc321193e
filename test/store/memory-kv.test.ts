import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { MemoryKv } from '../../src/store/memory-kv.js';
import { makeMemoryKv } from './harness.js';
import { runKvContract } from './kv-contract.js';

runKvContract('MemoryKv', makeMemoryKv);

describe('MemoryKv', () => {
  it('sweeps expired keys that nobody reads', async (t) => {
    let now = 0;
    const kv = new MemoryKv({ now: () => now });
    t.after(() => kv.close());
    await kv.set('a', 'v', { ttlMs: 100 });
    await kv.hset('b', 'f', 'v');
    await kv.set('c', 'v', { ttlMs: 1_000 });
    now = 500;
    assert.equal(kv.sweep(), 1);
    assert.equal(kv.sweep(), 0);
    assert.equal(await kv.get('c'), 'v');
    assert.equal(await kv.hget('b', 'f'), 'v');
  });

  it('runs the sweep on its own timer', async (t) => {
    let now = 0;
    const kv = new MemoryKv({ now: () => now, sweepIntervalMs: 5 });
    t.after(() => kv.close());
    await kv.set('a', 'v', { ttlMs: 10 });
    now = 20;
    const swept = new Promise<void>((resolve) => {
      const sweep = kv.sweep.bind(kv);
      kv.sweep = () => {
        const removed = sweep();
        if (removed > 0) resolve();
        return removed;
      };
    });
    await swept;
  });

  it('uses the real clock by default', async (t) => {
    const kv = new MemoryKv();
    t.after(() => kv.close());
    await kv.set('a', 'v', { ttlMs: 5_000 });
    const left = await kv.pttl('a');
    assert.ok(left > 4_000 && left <= 5_000);
  });
});
