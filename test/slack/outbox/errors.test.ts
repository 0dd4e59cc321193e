import assert from 'node:assert/strict';
import { afterEach, describe, it } from 'node:test';
import { SlackOutboxError } from '../../../src/slack/outbox/index.js';
import type { Block } from '../../../src/slack/reply.js';
import { type OutboxWorld, startWorld, TEAM, textHistory } from './world.js';

async function rejection(promise: Promise<unknown>): Promise<SlackOutboxError> {
  const error = await promise.then(
    () => assert.fail('expected the outbox to reject'),
    (e: unknown) => e,
  );
  assert.ok(error instanceof SlackOutboxError, `got ${String(error)}`);
  return error;
}

describe('outbox and permanent errors', () => {
  let world: OutboxWorld;
  afterEach(() => world.close());

  it('rejects at once with the Slack error code, and fails the posts queued for that channel too', async () => {
    world = await startWorld();
    const { outbox, slack, run, clock } = world;
    slack.setChannel('C9', { is_member: false });
    const start = clock.now();
    const posts = ['a', 'b', 'c'].map((text) =>
      rejection(outbox.post({ teamId: TEAM, channel: 'C9', text })),
    );
    const errors = await run(Promise.all(posts));

    assert.deepEqual(
      errors.map((e) => e.code),
      ['not_in_channel', 'not_in_channel', 'not_in_channel'],
    );
    assert.equal(errors[0]?.data.attempts, 1);
    assert.equal(errors[0]?.data.transient, false);
    assert.equal(slack.callsTo('chat.postMessage').length, 1, 'one call told us; no retry');
    assert.equal(clock.now(), start, 'no waiting');
    assert.equal(outbox.stats().failed, 3);
    assert.equal(outbox.stats().queued, 0);
  });

  it('rejects an edit of a missing message and an edit with invalid blocks without retrying', async () => {
    world = await startWorld();
    const { outbox, slack, run } = world;
    const missing = await run(
      rejection(
        outbox.update({ teamId: TEAM, channel: 'C1', ts: '1700000000.000001', text: 'x', final: true }),
      ),
    );
    assert.equal(missing.code, 'message_not_found');
    assert.equal(missing.data.ts, '1700000000.000001');

    const { channel, ts } = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'ok' }));
    const tooLong: Block[] = [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }];
    const invalid = await run(
      rejection(outbox.update({ teamId: TEAM, channel, ts, text: 'y', blocks: tooLong })),
    );
    assert.equal(invalid.code, 'invalid_blocks');
    assert.equal(slack.callsTo('chat.update').length, 2);
    assert.equal(outbox.stats().retries, 0);
  });

  it('rejects msg_too_long and goes on with the next post of the channel', async () => {
    world = await startWorld();
    const { outbox, slack, run } = world;
    slack.failNext('chat.postMessage', 'msg_too_long');
    const refused = rejection(outbox.post({ teamId: TEAM, channel: 'C1', text: 'huge' }));
    const next = outbox.post({ teamId: TEAM, channel: 'C1', text: 'next' });
    assert.equal((await run(refused)).code, 'msg_too_long');
    await run(next);
    assert.deepEqual(
      slack.messages('C1').map((m) => m.text),
      ['next'],
    );
  });

  it('cuts blocks to Slack limits before sending', async () => {
    world = await startWorld();
    const { outbox, slack, run } = world;
    const blocks: Block[] = Array.from({ length: 80 }, (_, i) => ({
      type: 'section',
      text: { type: 'mrkdwn', text: `line ${i}` },
    }));
    await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'many lines', blocks }));
    assert.equal(slack.messages('C1')[0]?.blocks?.length, 50);
    assert.deepEqual(slack.rejected(), []);
  });
});

describe('outbox and transient errors', () => {
  let world: OutboxWorld;
  afterEach(() => world.close());

  it('retries HTTP 5xx with growing delays and posts the message once', async () => {
    let failuresLeft = 2;
    world = await startWorld({
      intercept: (method) => {
        if (method !== 'chat.postMessage' || failuresLeft === 0) return undefined;
        failuresLeft -= 1;
        return { status: 503 };
      },
    });
    const { outbox, slack, run, clock } = world;
    const start = clock.now();
    const posted = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'build #3 passed' }));

    assert.equal(clock.now() - start, 3000, 'retried after 1 s, then 2 s');
    assert.deepEqual(
      slack.messages('C1').map((m) => [m.ts, m.text]),
      [[posted.ts, 'build #3 passed']],
    );
    assert.equal(outbox.stats().retries, 2);
  });

  it('retries network failures and ok:false internal_error', async () => {
    let dropNext = true;
    world = await startWorld({
      intercept: (method) => {
        if (method !== 'chat.update' || !dropNext) return undefined;
        dropNext = false;
        return { drop: true };
      },
    });
    const { outbox, slack, run } = world;
    const message = await run(outbox.post({ teamId: TEAM, channel: 'C1', text: 'v0' }));
    await run(outbox.update({ teamId: TEAM, ...message, text: 'v1' }));
    slack.failNext('chat.update', 'internal_error', 2);
    await run(outbox.update({ teamId: TEAM, ...message, text: 'v2', final: true }));

    assert.deepEqual(textHistory(slack, message.channel, message.ts), ['v0', 'v1', 'v2']);
    assert.equal(outbox.stats().retries, 3);
  });

  it('gives up after maxAttempts with a transient error, then sends the next post', async () => {
    let failuresLeft = 4;
    world = await startWorld({
      intercept: (method) => {
        if (method !== 'chat.postMessage' || failuresLeft === 0) return undefined;
        failuresLeft -= 1;
        return { status: 503 };
      },
    });
    const { outbox, slack, run } = world;
    const lost = rejection(outbox.post({ teamId: TEAM, channel: 'C1', text: 'lost' }));
    const next = outbox.post({ teamId: TEAM, channel: 'C1', text: 'next' });
    const error = await run(lost);
    assert.equal(error.code, 'http_error');
    assert.equal(error.data.status, 503);
    assert.equal(error.data.transient, true);
    assert.equal(error.data.attempts, 4);
    await run(next);
    assert.deepEqual(
      slack.messages('C1').map((m) => m.text),
      ['next'],
    );
  });
});
