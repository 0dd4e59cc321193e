import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { type FakeSlack, RESPONSE_URL_LIFETIME_MS, RESPONSE_URL_MAX_USES, startFakeSlack } from './index.js';
import { manualClock, webClientFor } from './test-support.js';

async function respond(url: string, body: unknown): Promise<{ status: number; body: unknown }> {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  return { status: response.status, body: await response.json() };
}

describe('fake Slack response_url', () => {
  const clock = manualClock();
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack({ now: clock.now });
  });
  after(() => slack.close());
  beforeEach(() => slack.reset());

  it('records what the app posts and answers ok', async () => {
    const url = slack.responseUrl();
    assert.ok(url.startsWith('http://127.0.0.1:'));
    const waiting = slack.waitForResponse((r) => r.body.text === 'Build #7 restarted', 1000);
    const answer = await respond(url, { response_type: 'ephemeral', text: 'Build #7 restarted' });
    assert.deepEqual(answer, { status: 200, body: { ok: true } });
    const record = await waiting;
    assert.equal(record.url, url);
    assert.deepEqual(record.body, { response_type: 'ephemeral', text: 'Build #7 restarted' });
    assert.equal(slack.responses.length, 1);
  });

  it(`takes ${RESPONSE_URL_MAX_USES} posts, then answers 404 used_url`, async () => {
    const url = slack.responseUrl();
    for (let i = 0; i < RESPONSE_URL_MAX_USES; i += 1) {
      assert.equal((await respond(url, { text: `update ${i}` })).status, 200);
    }
    assert.deepEqual(await respond(url, { text: 'one too many' }), {
      status: 404,
      body: { ok: false, error: 'used_url' },
    });
    assert.equal(slack.responses.at(-1)?.error, 'used_url');
  });

  it('expires 30 minutes after it was issued', async () => {
    const url = slack.responseUrl();
    clock.advance(RESPONSE_URL_LIFETIME_MS);
    assert.equal((await respond(url, { text: 'just in time' })).status, 200);
    clock.advance(1);
    assert.deepEqual((await respond(url, { text: 'late' })).body, { ok: false, error: 'expired_url' });
  });

  it('refuses unknown urls, bad JSON and blocks Slack would refuse', async () => {
    const url = slack.responseUrl();
    assert.equal((await respond(`${url}x`, { text: 'x' })).status, 404);
    const badJson = await fetch(url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: '{',
    });
    assert.equal(badJson.status, 400);
    const tooLong = await respond(url, {
      blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'x'.repeat(3001) } }],
    });
    assert.equal(tooLong.status, 400);
    assert.equal((tooLong.body as { error: string }).error, 'invalid_blocks');
    assert.deepEqual(
      slack.responses.map((r) => r.error),
      ['no_service', 'invalid_payload', 'invalid_blocks'],
    );
  });

  it('replaces, adds and deletes messages when bound to a channel and message', async () => {
    const client = webClientFor(slack);
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'Build #9 running' });
    const url = slack.responseUrl({ channel: 'C1', messageTs: posted.ts ?? '' });

    await respond(url, { replace_original: true, text: 'Build #9 cancelled' });
    const [edited] = slack.messages('C1');
    assert.equal(edited?.text, 'Build #9 cancelled');
    assert.deepEqual(
      edited?.history.map((v) => [v.text, v.replacedBy]),
      [['Build #9 running', 'response_url']],
    );

    await respond(url, { response_type: 'in_channel', text: 'Restarted by grace' });
    assert.deepEqual(
      slack.messages('C1').map((m) => m.text),
      ['Build #9 cancelled', 'Restarted by grace'],
    );

    await respond(url, { delete_original: true });
    assert.deepEqual(
      slack.messages('C1').map((m) => m.text),
      ['Restarted by grace'],
    );
  });
});
