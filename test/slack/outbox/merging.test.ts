import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { deferred, type OutboxWorld, startWorld, TEAM, textHistory } from './world.js';

describe('outbox merging of edits', () => {
  let world: OutboxWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(() => world.close());

  it('sends 100 edits made in one burst as one chat.update with the last content', async () => {
    const { outbox, slack, run } = world;
    const { channel, ts } = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'tail 0' }));
    const edits = Array.from({ length: 100 }, (_, i) =>
      outbox.update({ teamId: TEAM, channel, ts, text: `tail ${i + 1}` }),
    );
    assert.equal(outbox.stats().queued, 1, 'one pending edit per message');
    await run(Promise.all(edits));

    assert.deepEqual(textHistory(slack, channel, ts), ['tail 0', 'tail 100']);
    assert.equal(slack.callsTo('chat.update').length, 1);
    assert.equal(outbox.stats().mergedEdits, 99);
  });

  it('edits 10 times a second for 10 s at a handful of calls, ending with the last state', async () => {
    const { outbox, slack, run, clock } = world;
    const { channel, ts } = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'tail 0' }));
    const start = clock.now();
    const editor = (async () => {
      const edits: Promise<void>[] = [];
      for (let i = 1; i <= 100; i += 1) {
        edits.push(outbox.update({ teamId: TEAM, channel, ts, text: `tail ${i}`, final: i === 100 }));
        await clock.sleep(100);
      }
      await Promise.all(edits);
    })();
    await run(editor);

    const calls = slack.callsTo('chat.update');
    // 50 a minute: a burst of 5, then one every ~1.4 s over the 10 s.
    assert.ok(calls.length >= 5 && calls.length <= 14, `${calls.length} chat.update calls`);
    const history = textHistory(slack, channel, ts);
    assert.equal(history.at(-1), 'tail 100');
    const numbers = history.map((t) => Number(t.split(' ')[1]));
    assert.deepEqual(
      numbers,
      [...numbers].sort((a, b) => a - b),
      'states only move forward',
    );
    assert.equal(new Set(numbers).size, numbers.length, 'no state sent twice');
    assert.ok(clock.now() - start < 12_000, 'the last state follows the last edit closely');
    assert.equal(outbox.stats().mergedEdits, 100 - calls.length);
    assert.equal(slack.rateLimitedCount(), 0);
  });

  it('never replaces a queued final edit with a non-final one', async () => {
    const { outbox, slack, run } = world;
    const { channel, ts } = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'running' }));
    const edits = [
      outbox.update({ teamId: TEAM, channel, ts, text: 'tail 1' }),
      outbox.update({ teamId: TEAM, channel, ts, text: 'passed in 3 min', final: true }),
      outbox.update({ teamId: TEAM, channel, ts, text: 'tail 2 (late tick)' }),
    ];
    await run(Promise.all(edits));
    assert.deepEqual(textHistory(slack, channel, ts), ['running', 'passed in 3 min']);
  });

  it('keeps the final edit that is on the wire over a non-final edit made meanwhile', async () => {
    await world.close();
    const gate = deferred();
    const held = deferred();
    let holdNextUpdate = true;
    world = await startWorld({
      intercept: (method) => {
        if (method !== 'chat.update' || !holdNextUpdate) return undefined;
        holdNextUpdate = false;
        held.resolve();
        return { hold: gate.promise };
      },
    });
    const { outbox, slack, run } = world;
    const { channel, ts } = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'running' }));
    const final = outbox.update({ teamId: TEAM, channel, ts, text: 'failed', final: true });
    await held.promise;
    const late = outbox.update({ teamId: TEAM, channel, ts, text: 'tail (late tick)' });
    gate.resolve();
    await run(Promise.all([final, late]));

    assert.deepEqual(textHistory(slack, channel, ts), ['running', 'failed']);
    assert.equal(slack.callsTo('chat.update').length, 1);
  });

  it('sends a newer edit after the one on the wire, never both at once', async () => {
    await world.close();
    const gate = deferred();
    const held = deferred();
    let holdNextUpdate = true;
    world = await startWorld({
      intercept: (method) => {
        if (method !== 'chat.update' || !holdNextUpdate) return undefined;
        holdNextUpdate = false;
        held.resolve();
        return { hold: gate.promise };
      },
    });
    const { outbox, slack, run } = world;
    const { channel, ts } = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'tail 0' }));
    const first = outbox.update({ teamId: TEAM, channel, ts, text: 'tail 1' });
    await held.promise;
    const later = [2, 3, 4].map((i) => outbox.update({ teamId: TEAM, channel, ts, text: `tail ${i}` }));
    assert.equal(outbox.stats().inFlight, 1);
    assert.equal(outbox.stats().queued, 1);
    gate.resolve();
    await run(Promise.all([first, ...later]));

    assert.deepEqual(textHistory(slack, channel, ts), ['tail 0', 'tail 1', 'tail 4']);
  });

  it('keeps edits of different messages apart', async () => {
    const { outbox, slack, run } = world;
    const a = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'a0' }));
    const b = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'b0' }));
    await run(
      Promise.all([
        outbox.update({ teamId: TEAM, ...a, text: 'a1' }),
        outbox.update({ teamId: TEAM, ...b, text: 'b1' }),
        outbox.update({ teamId: TEAM, ...a, text: 'a2' }),
      ]),
    );
    assert.deepEqual(textHistory(slack, a.channel, a.ts), ['a0', 'a2']);
    assert.deepEqual(textHistory(slack, b.channel, b.ts), ['b0', 'b1']);
  });
});
