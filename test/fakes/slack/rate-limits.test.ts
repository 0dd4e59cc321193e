import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { webApi } from '@slack/bolt';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from './index.js';
import { manualClock, silentLogger, webClientFor } from './test-support.js';

interface RawAnswer {
  status: number;
  retryAfter: string | null;
  body: Record<string, unknown>;
}

async function callRaw(slack: FakeSlack, method: string, args: Record<string, string>): Promise<RawAnswer> {
  const response = await fetch(`${slack.apiUrl}${method}`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/x-www-form-urlencoded',
      Authorization: `Bearer ${FAKE_IDENTITY.botToken}`,
    },
    body: new URLSearchParams(args).toString(),
  });
  return {
    status: response.status,
    retryAfter: response.headers.get('retry-after'),
    body: (await response.json()) as Record<string, unknown>,
  };
}

const tiered: Array<{ method: string; limit: number; args: Record<string, string> }> = [
  { method: 'chat.update', limit: 50, args: { channel: 'C1', ts: '1.000001', text: 'x' } },
  { method: 'chat.unfurl', limit: 50, args: { channel: 'C1', ts: '1.000001', unfurls: '{}' } },
  { method: 'conversations.info', limit: 50, args: { channel: 'C1' } },
  { method: 'conversations.open', limit: 50, args: { users: 'U1' } },
  { method: 'chat.postEphemeral', limit: 100, args: { channel: 'C1', user: 'U1', text: 'x' } },
  { method: 'users.info', limit: 100, args: { user: 'U1' } },
  { method: 'views.open', limit: 100, args: { trigger_id: '1.1.ab', view: '{"type":"modal"}' } },
  { method: 'views.publish', limit: 100, args: { user_id: 'U1', view: '{"type":"home","blocks":[]}' } },
];

describe('fake Slack rate limits', () => {
  const clock = manualClock();
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack({ now: clock.now, enforceRateLimits: true });
  });
  after(() => slack.close());
  beforeEach(() => slack.reset());

  for (const { method, limit, args } of tiered) {
    it(`${method}: ${limit} calls a minute, then 429 with Retry-After until the window slides`, async () => {
      for (let i = 0; i < limit; i += 1) {
        const answer = await callRaw(slack, method, args);
        assert.equal(answer.status, 200, `call ${i + 1}`);
      }
      clock.advance(15_000);
      const limited = await callRaw(slack, method, args);
      assert.equal(limited.status, 429);
      assert.equal(limited.retryAfter, '45');
      assert.deepEqual(limited.body, { ok: false, error: 'ratelimited' });
      assert.equal(slack.rateLimitedCount(method), 1);
      clock.advance(45_000);
      assert.equal((await callRaw(slack, method, args)).status, 200);
    });
  }

  it('chat.postMessage: a burst of 3 per channel, then 1 per second', async () => {
    const post = (channel: string) => callRaw(slack, 'chat.postMessage', { channel, text: 'x' });
    for (let i = 0; i < 3; i += 1) assert.equal((await post('C1')).status, 200);
    const limited = await post('C1');
    assert.equal(limited.status, 429);
    assert.equal(limited.retryAfter, '1');
    assert.equal((await post('C2')).status, 200, 'another channel has its own budget');
    clock.advance(1000);
    assert.equal((await post('C1')).status, 200);
    assert.equal((await post('C1')).status, 429);
    clock.advance(3000);
    for (let i = 0; i < 3; i += 1) assert.equal((await post('C1')).status, 200);
    assert.equal(slack.rateLimitedCount('chat.postMessage'), 2);
    assert.equal(slack.messages('C1').length, 7);
  });

  it('records 429s as calls but not as rejected ones, and the WebClient sees Retry-After', async () => {
    slack.rateLimit('auth.test', 10_000, 7);
    const error = await webClientFor(slack)
      .auth.test()
      .then(
        () => assert.fail('expected a rate-limit error'),
        (e: unknown) => e,
      );
    assert.ok(error instanceof webApi.WebAPIRateLimitedError);
    assert.equal(error.retryAfter, 7);
    assert.deepEqual(
      slack.calls.map((c) => [c.method, c.status, c.error]),
      [['auth.test', 429, 'ratelimited']],
    );
    assert.deepEqual(slack.rejected(), []);
    assert.equal(slack.rateLimitedCount(), 1);
    clock.advance(10_000);
    assert.equal((await webClientFor(slack).auth.test()).ok, true);
  });
});

describe('fake Slack rate limits when not enforced', () => {
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack();
  });
  after(() => slack.close());

  it('lets every call through, except a method rate-limited by hand', async () => {
    for (let i = 0; i < 8; i += 1) {
      assert.equal((await callRaw(slack, 'chat.postMessage', { channel: 'C1', text: 'x' })).status, 200);
    }
    slack.rateLimit('chat.update', 60_000);
    const limited = await callRaw(slack, 'chat.update', { channel: 'C1', ts: '1.1', text: 'x' });
    assert.equal(limited.status, 429);
    assert.equal(limited.retryAfter, '60');
  });

  it('is retried by a WebClient that honours Retry-After', async () => {
    slack.rateLimit('users.info', 300, 1);
    const client = new webApi.WebClient(FAKE_IDENTITY.botToken, {
      slackApiUrl: slack.apiUrl,
      logger: silentLogger,
      retryConfig: { retries: 1, minTimeout: 0, maxTimeout: 0 },
    });
    const result = await client.users.info({ user: 'U1' });
    assert.equal(result.ok, true);
    assert.deepEqual(
      slack.callsTo('users.info').map((c) => c.status),
      [429, 200],
    );
  });
});

describe('fake Slack rate limits raised for a workspace', () => {
  const clock = manualClock();
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack({
      now: clock.now,
      enforceRateLimits: true,
      rateLimits: { 'chat.update': 70 },
    });
  });
  after(() => slack.close());

  it('holds a method to its own limit instead of its tier’s, and the others to their tier', async () => {
    const update = { channel: 'C1', ts: '1.000001', text: 'x' };
    for (let i = 0; i < 70; i += 1) assert.equal((await callRaw(slack, 'chat.update', update)).status, 200);
    assert.equal((await callRaw(slack, 'chat.update', update)).status, 429);
    clock.advance(60_001);
    assert.equal((await callRaw(slack, 'chat.update', update)).status, 200, 'the window slid');
    for (let i = 0; i < 50; i += 1) await callRaw(slack, 'chat.delete', { channel: 'C1', ts: '1.000001' });
    assert.equal((await callRaw(slack, 'chat.delete', { channel: 'C1', ts: '1.000001' })).status, 429);
  });
});
