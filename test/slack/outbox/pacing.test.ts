import assert from 'node:assert/strict';
import { afterEach, beforeEach, describe, it } from 'node:test';
import { SlackOutboxError } from '../../../src/slack/outbox/index.js';
import { type OutboxWorld, startWorld, TEAM } from './world.js';

const texts = (n: number, prefix: string) => Array.from({ length: n }, (_, i) => `${prefix} ${i}`);

describe('outbox pacing of chat.postMessage', () => {
  let world: OutboxWorld;
  beforeEach(async () => {
    world = await startWorld();
  });
  afterEach(() => world.close());

  it('sends 10 posts to one channel in order: a burst of 3, then about one a second', async () => {
    const { outbox, slack, run, clock } = world;
    const start = clock.now();
    const wanted = texts(10, 'post');
    const posted = await run(
      Promise.all(wanted.map((text) => outbox.post({ teamId: TEAM, channel: 'C1', text }))),
    );

    const stored = slack.messages('C1');
    assert.deepEqual(
      stored.map((m) => m.text),
      wanted,
    );
    assert.deepEqual(
      posted.map((p) => p.ts),
      stored.map((m) => m.ts),
      'each caller gets the ts of its own message',
    );
    assert.equal(slack.rateLimitedCount(), 0);
    const offsets = slack.callsTo('chat.postMessage').map((c) => c.at - start);
    assert.deepEqual(offsets.slice(0, 3), [0, 0, 0], 'the burst goes at once');
    for (let i = 3; i < offsets.length; i += 1) {
      const gap = (offsets[i] ?? 0) - (offsets[i - 1] ?? 0);
      assert.ok(gap >= 1000 && gap <= 1100, `post ${i} came ${gap} ms after the one before`);
    }
    assert.equal(outbox.stats().sent['chat.postMessage'], 10);
  });

  it('paces each channel on its own: 5 channels take as long as one', async () => {
    const { outbox, slack, run, clock } = world;
    const channels = ['C1', 'C2', 'C3', 'C4', 'C5'];
    const start = clock.now();
    await run(
      Promise.all(
        channels.flatMap((channel) =>
          texts(6, channel).map((text) => outbox.post({ teamId: TEAM, channel, text })),
        ),
      ),
    );
    const elapsed = clock.now() - start;
    // One channel alone: 3 at once, then 3 more a second apart.
    assert.ok(elapsed >= 3000 && elapsed <= 3300, `took ${elapsed} ms of (virtual) time`);
    for (const channel of channels) {
      assert.deepEqual(
        slack.messages(channel).map((m) => m.text),
        texts(6, channel),
      );
    }
    assert.equal(slack.rateLimitedCount(), 0);
  });

  it('posts thread replies and direct messages (to a user id) the same way', async () => {
    const { outbox, slack, run } = world;
    const parent = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'build #1 started' }));
    const reply = await run(
      outbox.post({ teamId: TEAM, channel: parent.channel, threadTs: parent.ts, text: 'log tail' }),
    );
    const dm = await run(outbox.post({ teamId: TEAM, channel: 'U0USER', text: 'your build failed' }));

    assert.equal(slack.messages('C1').find((m) => m.ts === reply.ts)?.thread_ts, parent.ts);
    assert.match(dm.channel, /^D/);
    assert.deepEqual(
      slack.messages(dm.channel).map((m) => m.text),
      ['your build failed'],
    );
  });

  it('refuses a post past the per-channel cap at once, and still sends the ones it holds', async () => {
    await world.close();
    world = await startWorld({ outbox: { maxQueuedPostsPerChannel: 4 } });
    const { outbox, slack, run } = world;
    const accepted = texts(4, 'held').map((text) => outbox.post({ teamId: TEAM, channel: 'C1', text }));
    const refused = await outbox.post({ teamId: TEAM, channel: 'C1', text: 'one too many' }).then(
      () => assert.fail('expected queue_full'),
      (error: unknown) => error,
    );
    assert.ok(refused instanceof SlackOutboxError);
    assert.equal(refused.code, 'queue_full');
    assert.equal(refused.data.channel, 'C1');
    assert.equal(slack.callsTo('chat.postMessage').length, 0, 'nothing was sent yet');

    await run(Promise.all(accepted));
    assert.deepEqual(
      slack.messages('C1').map((m) => m.text),
      texts(4, 'held'),
    );
    assert.equal(outbox.stats().failed, 1);
  });
});
