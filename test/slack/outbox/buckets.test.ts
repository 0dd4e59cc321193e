import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { bucketForBudget, budgetFor, DEFAULT_BUDGETS } from '../../../src/slack/outbox/budgets.js';
import { MinHeap } from '../../../src/slack/outbox/min-heap.js';
import { TokenBucket } from '../../../src/slack/outbox/token-bucket.js';

/** Sends whenever the bucket allows (after `start`), as the busiest queue would, for `spanMs`. */
function greedySends(bucket: TokenBucket, start: number, spanMs: number): number[] {
  const sends: number[] = [];
  for (let now = start; now < start + spanMs; ) {
    const readyAt = bucket.readyAt(now);
    if (readyAt > now) {
      now = readyAt;
      continue;
    }
    bucket.take(now);
    sends.push(now);
  }
  return sends;
}

function mostInAnyMinute(sends: number[]): number {
  let most = 0;
  for (const [i, at] of sends.entries()) {
    let count = 0;
    for (let j = i; j < sends.length && (sends[j] ?? 0) < at + 60_000; j += 1) count += 1;
    most = Math.max(most, count);
  }
  return most;
}

describe('outbox budgets', () => {
  it('never lets more than the budget into any minute, even sending as fast as allowed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 600 }), (perMinute) => {
        const sends = greedySends(bucketForBudget(perMinute, 0), 0, 5 * 60_000);
        assert.ok(mostInAnyMinute(sends) <= perMinute);
        // …and uses most of it over time (small budgets give up more to their burst of one).
        const used = sends.length / (perMinute * 5);
        assert.ok(used >= (perMinute >= 10 ? 0.85 : 0.45), `${sends.length} sends in 5 minutes`);
      }),
      { numRuns: 60 },
    );
  });

  it('defaults to Slack tiers and takes overrides', () => {
    assert.equal(budgetFor('chat.update', {}), 50);
    assert.equal(budgetFor('views.publish', {}), 100);
    assert.equal(budgetFor('chat.postEphemeral', {}), 100);
    assert.equal(budgetFor('conversations.open', {}), 50);
    assert.equal(budgetFor('some.new.method', {}), 20);
    assert.equal(budgetFor('chat.postMessage', {}), undefined, 'paced per channel instead');
    assert.equal(budgetFor('chat.update', { 'chat.update': 200 }), 200);
    assert.equal(budgetFor('chat.postMessage', { 'chat.postMessage': 300 }), 300);
    assert.equal(DEFAULT_BUDGETS['chat.update'], 50);
  });

  it('a token bucket refills at its rate up to its capacity, and empties after a 429', () => {
    const bucket = new TokenBucket(3, 1000, 0);
    for (let i = 0; i < 3; i += 1) {
      assert.equal(bucket.readyAt(0), 0);
      bucket.take(0);
    }
    assert.equal(bucket.readyAt(0), 1000);
    assert.equal(bucket.readyAt(999), 1000);
    assert.equal(bucket.readyAt(1000), 1000);
    assert.equal(bucket.isFull(10_000), true);
    bucket.empty(10_000);
    assert.equal(bucket.readyAt(10_000), 11_000);
  });
});

describe('outbox min-heap', () => {
  it('gives items back in order', () => {
    fc.assert(
      fc.property(fc.array(fc.integer()), (numbers) => {
        const heap = new MinHeap<number>((a, b) => a < b);
        for (const n of numbers) heap.push(n);
        const out: number[] = [];
        for (let n = heap.pop(); n !== undefined; n = heap.pop()) out.push(n);
        assert.deepEqual(
          out,
          [...numbers].sort((a, b) => a - b),
        );
      }),
    );
  });
});
