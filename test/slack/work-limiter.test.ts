import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { WorkLimiter } from '../../src/slack/work-limiter.js';

function gate() {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => {
    open = resolve;
  });
  return { opened, open };
}

describe('WorkLimiter', () => {
  it('runs at most maxRunning at once and starts queued work as slots free, in order', async () => {
    const limiter = new WorkLimiter(2, 10);
    const gates = [gate(), gate(), gate()];
    const started: number[] = [];
    gates.forEach((g, i) => {
      assert.equal(
        limiter.submit(async () => {
          started.push(i);
          await g.opened;
        }),
        true,
      );
    });
    assert.deepEqual(started, [0, 1]);
    assert.equal(limiter.queued, 1);
    gates[1]?.open();
    await new Promise((r) => setImmediate(r));
    assert.deepEqual(started, [0, 1, 2]);
    gates[0]?.open();
    gates[2]?.open();
    await new Promise((r) => setImmediate(r));
    assert.equal(limiter.running, 0);
  });

  it('refuses work beyond the queue limit, and keeps going after a failure', async () => {
    const limiter = new WorkLimiter(1, 1);
    const g = gate();
    assert.equal(
      limiter.submit(() => g.opened),
      true,
    );
    assert.equal(
      limiter.submit(async () => {}),
      true,
    );
    assert.equal(
      limiter.submit(async () => {}),
      false,
      'the queue is full',
    );
    g.open();
    await new Promise((r) => setImmediate(r));
    let ran = false;
    assert.equal(
      limiter.submit(async () => Promise.reject(new Error('boom'))),
      true,
    );
    assert.equal(
      limiter.submit(async () => {
        ran = true;
      }),
      true,
    );
    await new Promise((r) => setImmediate(r));
    await new Promise((r) => setImmediate(r));
    assert.equal(ran, true);
  });
});
