import assert from 'node:assert/strict';
import { after, afterEach, before, beforeEach, describe, it } from 'node:test';
import { setImmediate as nextTurn } from 'node:timers/promises';
import { createLogger } from '../../../src/log.js';
import { SlackOutbox, SlackOutboxError } from '../../../src/slack/outbox/index.js';
import { type FakeSlack, startFakeSlack } from '../../fakes/slack/index.js';
import { outboxCallerFor } from '../../helpers/outbox-caller.js';
import { deferred, type OutboxWorld, startWorld, TEAM, textHistory } from './world.js';

const isClosedError = (error: unknown) => error instanceof SlackOutboxError && error.code === 'outbox_closed';

describe('outbox drain and close', () => {
  let world: OutboxWorld;
  afterEach(() => world.close());

  it('drain waits until everything queued is sent', async () => {
    world = await startWorld();
    const { outbox, slack, run } = world;
    const posts = ['a', 'b', 'c', 'd', 'e'].map((text) => outbox.post({ teamId: TEAM, channel: 'C1', text }));
    assert.equal(await run(outbox.drain()), true);
    assert.equal(slack.messages('C1').length, 5);
    assert.deepEqual(outbox.stats().queued, 0);
    await Promise.all(posts);
    assert.equal(await outbox.drain(), true, 'an idle outbox drains at once');
  });

  it('drain gives up after its timeout while a method is paused, and leaves no timer', async () => {
    world = await startWorld();
    const { outbox, slack, run, clock } = world;
    const message = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'v0' }));
    slack.rateLimit('chat.update', 60_000, 60);
    const edit = outbox.update({ teamId: TEAM, ...message, text: 'v1', final: true });
    assert.equal(await run(outbox.drain(5000)), false);
    assert.ok(outbox.stats().oldestQueuedMs >= 5000);
    assert.equal(outbox.stats().queued, 1);
    outbox.close();
    await assert.rejects(edit, isClosedError);
    assert.equal(clock.pendingTimers(), 0, 'the outbox aborted its alarm');
    assert.deepEqual(textHistory(slack, message.channel, message.ts), ['v0']);
  });

  it('close rejects waiting requests, lets the one on the wire finish, and refuses new ones', async () => {
    world = await startWorld();
    const { outbox, slack, run } = world;
    const posts = ['a', 'b', 'c', 'd', 'e'].map((text) => outbox.post({ teamId: TEAM, channel: 'C1', text }));
    const settled = Promise.allSettled(posts);
    const fourth = posts[3];
    assert.ok(fourth);
    await run(fourth);
    outbox.close();
    const results = await settled;
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'fulfilled', 'fulfilled', 'fulfilled', 'rejected'],
    );
    assert.ok(results[4]?.status === 'rejected' && isClosedError(results[4].reason));
    assert.equal(slack.messages('C1').length, 4);
    await assert.rejects(outbox.post({ teamId: TEAM, channel: 'C1', text: 'late' }), isClosedError);
    await assert.rejects(outbox.update({ teamId: TEAM, channel: 'C1', ts: '1.1', text: 'x' }), isClosedError);
    assert.equal(await outbox.drain(), true);
  });
});

describe('outbox on real timers', () => {
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack();
  });
  after(() => slack.close());
  beforeEach(() => slack.reset());

  const timeouts = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;

  it('holds one timer while paused and none after close (the process can exit)', async (t) => {
    const client = outboxCallerFor(slack);
    const paused = deferred();
    const logger = createLogger('warn', {
      write: (line: string) => {
        if (line.includes('rate limited')) paused.resolve();
      },
    });
    const outbox = new SlackOutbox({ clientFor: () => client, logger });
    t.after(() => outbox.close());
    const { channel, ts } = await outbox.post({ teamId: TEAM, channel: 'C1', text: 'v0' });
    const before = timeouts();
    slack.rateLimit('chat.update', 60_000, 60);
    const edit = outbox.update({ teamId: TEAM, channel, ts, text: 'v1' });
    const drained = outbox.drain(10_000);
    await paused.promise;
    await nextTurn(); // the pump arms its alarm right after the 429 is handled
    assert.equal(outbox.stats().rateLimited, 1);
    assert.equal(timeouts(), before + 2, 'the 60 s pause and the drain timeout');
    outbox.close();
    await assert.rejects(edit, isClosedError);
    assert.equal(await drained, true);
    assert.equal(timeouts(), before, 'no timer left behind');
  });

  it('sends with the real clock when nothing limits it', async (t) => {
    const client = outboxCallerFor(slack);
    const outbox = new SlackOutbox({ clientFor: () => client, logger: createLogger('silent') });
    t.after(() => outbox.close());
    const posted = await outbox.post({ teamId: TEAM, channel: 'C2', text: 'hello' });
    await outbox.update({ teamId: TEAM, ...posted, text: 'hello again', final: true });
    assert.equal(await outbox.drain(1000), true);
    outbox.close();
    assert.deepEqual(
      slack.messages('C2').map((m) => m.text),
      ['hello again'],
    );
  });
});

describe('outbox calls to other methods', () => {
  let world: OutboxWorld;
  afterEach(() => world.close());

  it('sends them under their budget and through 429s', async () => {
    world = await startWorld({ outbox: { budgets: { 'views.publish': 20 } } });
    const { outbox, slack, run } = world;
    slack.rateLimit('views.publish', 1500, 1);
    const view = { type: 'home', blocks: [] };
    const results = await run(
      Promise.all(
        Array.from({ length: 25 }, (_, i) =>
          outbox.call({ teamId: TEAM, method: 'views.publish', args: { user_id: `U${i}`, view } }),
        ),
      ),
    );
    assert.ok(results.every((r) => r.ok === true));
    assert.ok(slack.rateLimitedCount('views.publish') > 0);
    assert.equal(slack.callsTo('views.publish').filter((c) => c.ok).length, 25);
    const okAt = slack
      .callsTo('views.publish')
      .filter((c) => c.ok)
      .map((c) => c.at);
    for (const at of okAt) {
      assert.ok(okAt.filter((t) => t > at - 60_000 && t <= at).length <= 20, 'never over 20 a minute');
    }
  });

  it('refuses chat.postMessage and chat.update, which have their own entry points', async () => {
    world = await startWorld();
    await assert.rejects(
      world.outbox.call({ teamId: TEAM, method: 'chat.update', args: {} }),
      /use SlackOutbox.update/,
    );
  });
});
