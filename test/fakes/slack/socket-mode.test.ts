import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import { App, SocketModeReceiver } from '@slack/bolt';
import { WebSocket } from 'ws';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from './index.js';
import { platformError, silentLogger, webClientFor } from './test-support.js';

/** A SocketModeClient (from @slack/socket-mode, through Bolt's receiver) pointed at the fake. */
function socketModeReceiver(slack: FakeSlack): SocketModeReceiver {
  return new SocketModeReceiver({
    appToken: FAKE_IDENTITY.appToken,
    logger: silentLogger,
    // Also the delay before reconnecting after a disconnect message; keeps the test quick.
    clientPingTimeout: 300,
    installerOptions: { clientOptions: { slackApiUrl: slack.apiUrl } },
  });
}

function nextMessage(socket: WebSocket): Promise<Record<string, unknown>> {
  return once(socket, 'message').then(([data]) => JSON.parse(String(data)) as Record<string, unknown>);
}

describe('fake Slack Socket Mode, raw protocol', () => {
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack({ socketPingIntervalMs: 50 });
  });
  after(() => slack.close());

  it('hands out a single-use WebSocket URL for the app token only', async () => {
    const opened = await webClientFor(slack, FAKE_IDENTITY.appToken).apps.connections.open();
    assert.match(opened.url ?? '', /^ws:\/\/127\.0\.0\.1:\d+\/link\/\?ticket=[0-9a-f-]+&app_id=A0TEST$/);
    const wrongToken = await platformError(webClientFor(slack).apps.connections.open());
    assert.equal(wrongToken.error, 'not_allowed_token_type');

    const first = new WebSocket(opened.url ?? '');
    await nextMessage(first);
    const second = new WebSocket(opened.url ?? '');
    const [, response] = await once(second, 'unexpected-response');
    assert.equal((response as { statusCode: number }).statusCode, 401);
    first.close();
    await once(first, 'close');
  });

  it('says hello, delivers envelopes, resolves on the ack and pings', async () => {
    const opened = await webClientFor(slack, FAKE_IDENTITY.appToken).apps.connections.open();
    const socket = new WebSocket(opened.url ?? '');
    const pinged = once(socket, 'ping');
    const hello = await nextMessage(socket);
    assert.equal(hello.type, 'hello');
    assert.equal(hello.num_connections, 1);
    assert.deepEqual(hello.connection_info, { app_id: 'A0TEST' });
    assert.equal(typeof (hello.debug_info as { host: unknown }).host, 'string');
    await slack.socketMode.waitForConnection(500);
    assert.equal(slack.socketMode.connections(), 1);

    const incoming = nextMessage(socket);
    const delivery = slack.socketMode.send('events_api', {
      type: 'event_callback',
      event: { type: 'app_mention' },
    });
    const envelope = await incoming;
    assert.equal(envelope.type, 'events_api');
    assert.equal(envelope.accepts_response_payload, false);
    assert.equal(envelope.retry_attempt, 0);
    assert.deepEqual(envelope.payload, { type: 'event_callback', event: { type: 'app_mention' } });
    socket.send(JSON.stringify({ envelope_id: envelope.envelope_id }));
    const ack = await delivery;
    assert.equal(ack.envelopeId, envelope.envelope_id);
    assert.ok(ack.ackedAt >= ack.sentAt);
    assert.equal(ack.payload, undefined);
    await pinged;

    const unanswered = slack.socketMode.send('slash_commands', { command: '/ci' }, { timeoutMs: 50 });
    await assert.rejects(unanswered, /not acknowledged within 50 ms/);
    socket.close();
    await once(socket, 'close');
  });

  it('refuses to send when no connection is open', async () => {
    await assert.rejects(slack.socketMode.send('events_api', {}), /no Socket Mode connection/);
    await assert.rejects(slack.socketMode.waitForConnection(20), /no Socket Mode connection within 20 ms/);
  });
});

describe('fake Slack Socket Mode with @slack/socket-mode', () => {
  let slack: FakeSlack;
  let receiver: SocketModeReceiver;
  before(async () => {
    slack = await startFakeSlack();
    receiver = socketModeReceiver(slack);
    receiver.client.on('slash_commands', async ({ ack, body }) => {
      await ack({ response_type: 'ephemeral', text: `got ${body.text}` });
    });
    receiver.client.on('interactive', async ({ ack, body }) => {
      await ack(
        body.type === 'view_submission' ? { response_action: 'errors', errors: { branch: 'unknown' } } : {},
      );
    });
    await receiver.client.start();
  });
  after(async () => {
    await receiver.client.disconnect();
    await slack.close();
  });

  it('connects through apps.connections.open and acks a slash command with a payload', async () => {
    assert.equal(slack.socketMode.connections(), 1);
    assert.equal(slack.callsTo('apps.connections.open')[0]?.token, FAKE_IDENTITY.appToken);
    const ack = await slack.socketMode.send('slash_commands', { command: '/ci', text: 'status' });
    assert.deepEqual(ack.payload, { response_type: 'ephemeral', text: 'got status' });
  });

  it('passes interactive envelopes and their response payloads', async () => {
    const submission = await slack.socketMode.send('interactive', {
      type: 'view_submission',
      view: { id: 'V1' },
    });
    assert.deepEqual(submission.payload, { response_action: 'errors', errors: { branch: 'unknown' } });
    const click = await slack.socketMode.send('interactive', { type: 'block_actions', actions: [] });
    assert.deepEqual(click.payload, {});
  });

  it('sends disconnect messages; the client reconnects with a fresh URL', async () => {
    const opensBefore = slack.callsTo('apps.connections.open').length;
    slack.socketMode.disconnectAll('refresh_requested');
    assert.equal(slack.socketMode.connections(), 0);
    await slack.socketMode.waitForConnection(3000);
    assert.equal(slack.callsTo('apps.connections.open').length, opensBefore + 1);
    const ack = await slack.socketMode.send('slash_commands', { command: '/ci', text: 'again' });
    assert.deepEqual(ack.payload, { response_type: 'ephemeral', text: 'got again' });
  });
});

describe('fake Slack Socket Mode with a Bolt app', () => {
  let slack: FakeSlack;
  let app: App;
  before(async () => {
    slack = await startFakeSlack();
    app = new App({
      token: FAKE_IDENTITY.botToken,
      receiver: socketModeReceiver(slack),
      logger: silentLogger,
      clientOptions: { slackApiUrl: slack.apiUrl },
    });
    app.command('/ci', async ({ ack, command, client, respond }) => {
      await ack();
      await client.chat.postMessage({ channel: command.channel_id, text: `Running ${command.text}` });
      await respond({ response_type: 'ephemeral', text: 'Started' });
    });
    await app.start();
  });
  after(async () => {
    await app.stop();
    await slack.close();
  });

  it('acks a command, then posts through the Web API and the response_url', async () => {
    const responseUrl = slack.responseUrl();
    const ack = await slack.socketMode.send('slash_commands', {
      command: '/ci',
      text: 'build main',
      channel_id: 'C1',
      user_id: 'U1',
      team_id: FAKE_IDENTITY.teamId,
      api_app_id: FAKE_IDENTITY.appId,
      response_url: responseUrl,
      trigger_id: slack.issueTriggerId(),
    });
    assert.ok(ack.ackedAt - ack.sentAt < 3000);
    const post = await slack.waitForCall('chat.postMessage');
    assert.equal(post.args.text, 'Running build main');
    const response = await slack.waitForResponse();
    assert.equal(response.url, responseUrl);
    assert.equal(response.body.text, 'Started');
    assert.deepEqual(slack.rejected(), []);
  });
});
