import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import type { PostedMessage } from '../../../src/slack/outbox/index.js';
import { type OutboxWorld, startWorld, TEAM, textHistory } from './world.js';

describe('outbox and 429', () => {
  let world: OutboxWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(() => world.close());

  it('holds chat.update for Retry-After, then sends the newest content of each message once', async () => {
    const { outbox, slack, run, clock } = world;
    const messages = await run(
      Promise.all(['a', 'b', 'c'].map((m) => outbox.post({ teamId: TEAM, channel: 'C1', text: `${m} 0` }))),
    );
    slack.rateLimit('chat.update', 1500, 1);
    const blockedAt = clock.now();
    const editor = (async () => {
      const edits: Promise<void>[] = [];
      for (let round = 1; round <= 5; round += 1) {
        for (const [i, message] of messages.entries()) {
          const text = `${'abc'[i]} ${round}`;
          edits.push(outbox.update({ teamId: TEAM, ...message, text, final: round === 5 }));
        }
        await clock.sleep(400);
      }
      await Promise.all(edits);
    })();
    await run(editor);

    const updates = slack.callsTo('chat.update');
    const limited = updates.filter((c) => c.status === 429);
    assert.ok(limited.length > 0, 'the block was met');
    assert.equal(outbox.stats().rateLimited, limited.length);
    const firstLimited = limited[0]?.at ?? 0;
    for (const call of updates.filter((c) => c.at > firstLimited)) {
      assert.ok(call.at >= firstLimited + 1000, 'nothing is sent before Retry-After has passed');
    }
    assert.ok(updates.filter((c) => c.ok).every((c) => c.at >= blockedAt + 1500));
    for (const [i, message] of messages.entries()) {
      const history = textHistory(slack, message.channel, message.ts);
      assert.equal(history.at(-1), `${'abc'[i]} 5`, 'the final content arrives');
      assert.equal(new Set(history).size, history.length, 'no edit applied twice');
    }
    assert.deepEqual(slack.rejected(), []);
  });

  it('holds chat.postMessage for Retry-After: every post arrives once, in order', async () => {
    const { outbox, slack, run } = world;
    slack.rateLimit('chat.postMessage', 1500, 1);
    const wanted = { C1: ['one', 'two', 'three', 'four', 'five'], C2: ['six', 'seven'] };
    const posts = Object.entries(wanted).flatMap(([channel, list]) =>
      list.map((text) => outbox.post({ teamId: TEAM, channel, text })),
    );
    const posted: PostedMessage[] = await run(Promise.all(posts));

    assert.ok(slack.rateLimitedCount('chat.postMessage') > 0);
    assert.deepEqual(
      slack.messages('C1').map((m) => m.text),
      wanted.C1,
    );
    assert.deepEqual(
      slack.messages('C2').map((m) => m.text),
      wanted.C2,
    );
    assert.equal(new Set(posted.map((p) => `${p.channel} ${p.ts}`)).size, 7, 'each post its own message');
    assert.equal(slack.callsTo('chat.postMessage').filter((c) => c.ok).length, 7, 'none sent twice');
  });

  it('pauses one method only: posts go on while chat.update is limited', async () => {
    const { outbox, slack, run, clock } = world;
    const first = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'build started' }));
    slack.rateLimit('chat.update', 30_000, 30);
    const edit = outbox.update({ teamId: TEAM, ...first, text: 'build running', final: true });
    const start = clock.now();
    await run(outbox.post({ teamId: TEAM, channel: 'C2', text: 'another build' }));
    assert.ok(clock.now() - start < 100, 'the post did not wait for chat.update');
    await run(edit);
    assert.ok(clock.now() - start >= 30_000);
    assert.equal(slack.rateLimitedCount('chat.update'), 1, 'one 429, then it waited the whole Retry-After');
    assert.equal(textHistory(slack, first.channel, first.ts).at(-1), 'build running');
  });
});

describe('outbox budgets and priorities', () => {
  let world: OutboxWorld;
  beforeEach(async () => {
    world = await startWorld({ outbox: { budgets: { 'chat.update': 50 } } });
  });
  afterEach(() => world.close());

  it('keeps 200 live messages under 50 edits a minute, every one ending final, high priority first', async () => {
    const { outbox, slack, run, clock } = world;
    const channels = Array.from({ length: 20 }, (_, i) => `C${100 + i}`);
    const messages = await run(
      Promise.all(
        Array.from({ length: 200 }, (_, i) =>
          outbox.post({ teamId: TEAM, channel: channels[i % 20] ?? 'C1', text: `job ${i}: tail 0` }),
        ),
      ),
    );
    const edits: Promise<void>[] = [];
    const editRound = (round: number, final: boolean) => {
      for (const [i, message] of messages.entries()) {
        edits.push(outbox.update({ teamId: TEAM, ...message, text: `job ${i}: tail ${round}`, final }));
      }
    };
    const last = messages[199];
    assert.ok(last);
    const measured = { postMs: 0, finalEditMs: 0, oldestLowMs: 0 };
    const load = (async () => {
      for (let round = 1; round <= 10; round += 1) {
        editRound(round, false);
        await clock.sleep(2000);
      }
      // The queue is long now: a notification and one job's final state must not wait behind it.
      measured.oldestLowMs = outbox.stats().oldestQueuedMs;
      const start = clock.now();
      const urgent = [
        outbox.post({ teamId: TEAM, channel: 'C999', text: 'build #7 failed' }).then(() => {
          measured.postMs = clock.now() - start;
        }),
        outbox.update({ teamId: TEAM, ...last, text: 'job 199: done', final: true }).then(() => {
          measured.finalEditMs = clock.now() - start;
        }),
      ];
      await Promise.all(urgent);
      editRound(11, true);
      await Promise.all(edits);
    })();
    await run(load);

    assert.equal(slack.rateLimitedCount(), 0, 'the enforcing fake never answered 429');
    for (const [i, message] of messages.entries()) {
      assert.equal(textHistory(slack, message.channel, message.ts).at(-1), `job ${i}: tail 11`);
    }
    assert.ok(measured.oldestLowMs > 10_000, `low edits waited ${measured.oldestLowMs} ms`);
    assert.ok(measured.postMs < 100, `the high-priority post took ${measured.postMs} ms`);
    assert.ok(measured.finalEditMs < 3000, `the final edit took ${measured.finalEditMs} ms`);
    const updates = slack.callsTo('chat.update').map((c) => c.at);
    for (const at of updates) {
      const inMinute = updates.filter((t) => t > at - 60_000 && t <= at).length;
      assert.ok(inMinute <= 50, `${inMinute} chat.update calls within a minute`);
    }
    assert.ok(updates.length < 260, `${updates.length} chat.update calls for 2,200 edits`);
    assert.deepEqual(slack.rejected(), []);
  });

  it('raises a budget for a workspace granted more', async () => {
    await world.close();
    world = await startWorld({ enforceRateLimits: false, outbox: { budgets: { 'chat.update': 600 } } });
    const { outbox, slack, run, clock } = world;
    const messages = await run(
      Promise.all(
        Array.from({ length: 50 }, (_, i) => outbox.post({ teamId: TEAM, channel: `C${i}`, text: 'x' })),
      ),
    );
    const start = clock.now();
    await run(Promise.all(messages.map((m) => outbox.update({ teamId: TEAM, ...m, text: 'y' }))));
    const elapsed = clock.now() - start;
    // 600 a minute: a burst of 20, then 580 spread over the (padded) minute, about 9.4 a second;
    // at the default 50 a minute the same 50 edits would take about 61 s.
    assert.ok(elapsed >= 3000 && elapsed <= 3500, `50 edits took ${elapsed} ms`);
    assert.equal(slack.callsTo('chat.update').length, 50);
  });
});
