import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { EventEmitter, once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { App, HTTPReceiver } from '@slack/bolt';
import {
  blockActionsBody,
  eventBody,
  messageShortcutBody,
  postToApp,
  signBody,
  slashCommandBody,
  urlVerificationBody,
  viewSubmissionBody,
} from '../../helpers/slack-requests.js';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from './index.js';
import { silentLogger } from './test-support.js';

describe('signBody', () => {
  it("matches the example in Slack's request-verification guide", () => {
    const body =
      'token=xyzz0WbapA4vBCDEFasx0q6G&team_id=T1DC2JH3J&team_domain=testteamnow&channel_id=G8PSS9T3V' +
      '&channel_name=foobar&user_id=U2CERLKJA&user_name=roadrunner&command=%2Fwebhook-collect&text=' +
      '&response_url=https%3A%2F%2Fhooks.slack.com%2Fcommands%2FT1DC2JH3J%2F397700885554%2F96rGlfmibIGlgcZRskXaIFfN' +
      '&trigger_id=398738663015.47445629121.803a0bc887a14d10d2c447fce8b6703c';
    assert.equal(
      signBody('8f742231b10e8888abcd99yyyzzz85a5', 1531420618, body),
      'v0=a2114d57b48eac39b9ad189dd8316235a7b4a8d21a10bd27519666489c69b503',
    );
  });

  it('is v0= and the hex HMAC-SHA256 of v0:timestamp:body', () => {
    const expected = createHmac('sha256', 'secret').update('v0:1700000000:a=1&b=2').digest('hex');
    assert.equal(signBody('secret', 1700000000, 'a=1&b=2'), `v0=${expected}`);
    assert.notEqual(signBody('secret', 1700000001, 'a=1&b=2'), `v0=${expected}`);
  });
});

describe('requests signed by postToApp, checked by a Bolt app over HTTP', () => {
  const signingSecret = 'test-signing-secret';
  const mentions: Array<{ text: unknown; retryNum: unknown }> = [];
  // Bolt acks an event before its listener runs, so the test waits for the listener itself.
  const mentionSeen = new EventEmitter();
  let slack: FakeSlack;
  let app: App;
  let url: string;

  before(async () => {
    slack = await startFakeSlack();
    app = new App({
      token: FAKE_IDENTITY.botToken,
      receiver: new HTTPReceiver({ signingSecret, logger: silentLogger }),
      logger: silentLogger,
      clientOptions: { slackApiUrl: slack.apiUrl },
    });
    app.command('/ci', async ({ ack, command, client }) => {
      await ack({ response_type: 'ephemeral', text: `ok ${command.text}` });
      await client.views.open({
        trigger_id: command.trigger_id,
        view: { type: 'modal', title: { type: 'plain_text', text: 'Restart' }, blocks: [] },
      });
    });
    app.action('restart', async ({ ack, respond, body }) => {
      await ack();
      const value =
        body.type === 'block_actions' && body.actions[0]?.type === 'button' ? body.actions[0].value : '';
      await respond({ replace_original: true, text: `Restarting ${value}` });
    });
    app.view('restart_modal', async ({ ack, view }) => {
      const branch = view.state.values.branch?.value?.value;
      await ack({ response_action: 'errors', errors: { branch: `no branch ${branch}` } });
    });
    app.shortcut('rerun', async ({ ack, shortcut, respond }) => {
      await ack();
      if (shortcut.type === 'message_action') await respond({ text: `rerun of ${shortcut.message.ts}` });
    });
    app.event('app_mention', async ({ event, context }) => {
      mentions.push({ text: event.text, retryNum: context.retryNum });
      mentionSeen.emit('mention');
    });
    const server = await app.start({ port: 0, host: '127.0.0.1' });
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/slack/events`;
  });
  after(async () => {
    await app.stop();
    await slack.close();
  });

  it('passes a signed slash command; its trigger_id opens a modal in the fake', async () => {
    const body = slashCommandBody({
      text: 'status main',
      responseUrl: slack.responseUrl(),
      triggerId: slack.issueTriggerId(),
    });
    const params = new URLSearchParams(body);
    for (const field of ['team_domain', 'channel_name', 'user_name', 'api_app_id', 'is_enterprise_install']) {
      assert.ok(params.has(field), field);
    }
    assert.equal(params.get('command'), '/ci');
    const answer = await postToApp(url, body, { signingSecret });
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body), { response_type: 'ephemeral', text: 'ok status main' });
    assert.ok(answer.ms > 0);
    const opened = await slack.waitForCall('views.open');
    assert.equal(opened.ok, true);
  });

  it('is refused by Bolt when forged or older than 5 minutes', async () => {
    const body = slashCommandBody({ text: 'x', responseUrl: slack.responseUrl() });
    assert.equal((await postToApp(url, body, { signingSecret, forgeSignature: true })).status, 401);
    const stale = Math.floor(Date.now() / 1000) - 5 * 60 - 5;
    assert.equal((await postToApp(url, body, { signingSecret, timestamp: stale })).status, 401);
    assert.equal((await postToApp(url, body, { signingSecret: 'another-secret' })).status, 401);
  });

  it('passes a block_actions click, whose respond() lands in the fake', async () => {
    const responseUrl = slack.responseUrl();
    const body = blockActionsBody({
      actionId: 'restart',
      value: 'build-42',
      message: { ts: '1700000000.000100', text: 'Build #42 failed' },
      responseUrl,
      triggerId: slack.issueTriggerId(),
    });
    assert.equal((await postToApp(url, body, { signingSecret })).status, 200);
    const response = await slack.waitForResponse((r) => r.url === responseUrl);
    assert.deepEqual(response.body, { replace_original: true, text: 'Restarting build-42' });
  });

  it('passes a view_submission and returns the ack body', async () => {
    const body = viewSubmissionBody({
      view: {
        id: 'V0000000001',
        callbackId: 'restart_modal',
        privateMetadata: '{"repo":1}',
        values: { branch: { value: { type: 'plain_text_input', value: 'feature' } } },
      },
    });
    const answer = await postToApp(url, body, { signingSecret });
    assert.equal(answer.status, 200);
    assert.deepEqual(JSON.parse(answer.body), {
      response_action: 'errors',
      errors: { branch: 'no branch feature' },
    });
  });

  it('passes a message shortcut', async () => {
    const responseUrl = slack.responseUrl();
    const body = messageShortcutBody({
      callbackId: 'rerun',
      message: { ts: '1700000000.000200', text: 'deploy failed' },
      responseUrl,
    });
    assert.equal((await postToApp(url, body, { signingSecret })).status, 200);
    const response = await slack.waitForResponse((r) => r.url === responseUrl);
    assert.equal(response.body.text, 'rerun of 1700000000.000200');
  });

  it('passes events as JSON with the retry headers, and answers url_verification', {
    timeout: 2000,
  }, async () => {
    const event = {
      type: 'app_mention',
      user: 'U1',
      text: '<@UBOT> status',
      channel: 'C1',
      ts: '1700000000.000300',
    };
    assert.equal((await postToApp(url, eventBody({ event, eventId: 'Ev1' }), { signingSecret })).status, 200);
    assert.equal(
      (await postToApp(url, eventBody({ event, eventId: 'Ev1' }), { signingSecret, retryNum: 1 })).status,
      200,
    );
    while (mentions.length < 2) await once(mentionSeen, 'mention');
    assert.deepEqual(mentions, [
      { text: '<@UBOT> status', retryNum: undefined },
      { text: '<@UBOT> status', retryNum: 1 },
    ]);
    const challenge = await postToApp(url, urlVerificationBody('c-123'), { signingSecret });
    assert.equal(challenge.status, 200);
    assert.deepEqual(JSON.parse(challenge.body), { challenge: 'c-123' });
  });
});
