import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from './index.js';
import { platformError, webClientFor } from './test-support.js';

describe('fake Slack Web API', () => {
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack();
  });
  after(() => slack.close());
  beforeEach(() => slack.reset());

  it('answers auth.test with the bot identity, as Bolt expects at start', async () => {
    const result = await webClientFor(slack).auth.test();
    assert.equal(result.ok, true);
    assert.equal(result.user_id, 'UBOT');
    assert.equal(result.team_id, 'T0TEST');
    assert.equal(result.bot_id, FAKE_IDENTITY.botId);
  });

  it('decodes what @slack/web-api sends: form fields, JSON-encoded blocks, bearer token', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*hi*' } }];
    await webClientFor(slack).chat.postMessage({ channel: 'C1', text: 'hi', blocks, unfurl_links: false });
    const [call] = slack.callsTo('chat.postMessage');
    assert.ok(call);
    assert.equal(call.token, FAKE_IDENTITY.botToken);
    assert.deepEqual(call.args.blocks, blocks);
    assert.equal(call.args.text, 'hi');
    assert.equal(call.args.unfurl_links, 'false');
    assert.equal(call.args.token, undefined);
  });

  it('accepts a JSON body with the token inside it', async () => {
    const response = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json; charset=utf-8' },
      body: JSON.stringify({ token: FAKE_IDENTITY.botToken, channel: 'C1', text: 'json' }),
    });
    const body = (await response.json()) as Record<string, unknown>;
    assert.equal(response.status, 200);
    assert.equal(body.ok, true);
    assert.equal(slack.messages('C1')[0]?.text, 'json');
  });

  it('posts messages with unique increasing ts and keeps threads', async () => {
    const client = webClientFor(slack);
    const parent = await client.chat.postMessage({ channel: 'C1', text: 'build #1 started' });
    const reply = await client.chat.postMessage({ channel: 'C1', text: 'log', thread_ts: parent.ts });
    assert.equal(parent.channel, 'C1');
    assert.match(parent.ts ?? '', /^\d{10}\.\d{6}$/);
    assert.ok(Number(reply.ts) > Number(parent.ts));
    assert.equal(parent.message?.text, 'build #1 started');
    assert.equal(parent.message?.bot_id, FAKE_IDENTITY.botId);
    const stored = slack.messages('C1');
    assert.deepEqual(
      stored.map((m) => [m.text, m.thread_ts]),
      [
        ['build #1 started', undefined],
        ['log', parent.ts],
      ],
    );
  });

  it('posts to a user id in the DM channel with that user', async () => {
    const result = await webClientFor(slack).chat.postMessage({ channel: 'U123', text: 'psst' });
    assert.equal(result.channel, 'DU123');
    assert.equal(slack.messages('DU123').length, 1);
  });

  it('refuses a message with neither text nor blocks, and a bad channel', async () => {
    const client = webClientFor(slack);
    assert.equal(
      (await platformError(client.chat.postMessage({ channel: 'C1', text: '' }))).error,
      'no_text',
    );
    assert.equal(
      (await platformError(client.chat.postMessage({ channel: '#nope', text: 'x' }))).error,
      'channel_not_found',
    );
    slack.setChannel('C2', { is_member: false });
    assert.equal(
      (await platformError(client.chat.postMessage({ channel: 'C2', text: 'x' }))).error,
      'not_in_channel',
    );
    slack.setChannel('C3', { is_archived: true });
    assert.equal(
      (await platformError(client.chat.postMessage({ channel: 'C3', text: 'x' }))).error,
      'is_archived',
    );
    assert.equal(slack.rejected().length, 4);
  });

  it('edits messages with chat.update and keeps the edit history', async () => {
    const client = webClientFor(slack);
    const blocks = [{ type: 'section', text: { type: 'plain_text', text: 'running' } }];
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'running', blocks });
    const ts = posted.ts ?? '';
    const updated = await client.chat.update({ channel: 'C1', ts, text: 'passed' });
    assert.equal(updated.ts, ts);
    assert.equal(updated.text, 'passed');
    await client.chat.update({ channel: 'C1', ts, text: 'passed', blocks: [] });
    const [message] = slack.messages('C1');
    assert.ok(message);
    assert.equal(message.text, 'passed');
    assert.deepEqual(message.blocks, []);
    assert.deepEqual(
      message.history.map((v) => [v.text, v.blocks?.length, v.replacedBy]),
      [
        ['running', 1, 'chat.update'],
        ['passed', 1, 'chat.update'],
      ],
    );
    const missing = await platformError(client.chat.update({ channel: 'C1', ts: '1.000001', text: 'x' }));
    assert.equal(missing.error, 'message_not_found');
  });

  it('stores text over 40,000 characters cut, and records that', async () => {
    const client = webClientFor(slack);
    await client.chat.postMessage({ channel: 'C1', text: 'a'.repeat(40_000) });
    await client.chat.postMessage({ channel: 'C1', text: 'b'.repeat(40_001) });
    const [atLimit, over] = slack.messages('C1');
    assert.equal(atLimit?.truncated, false);
    assert.equal(atLimit?.text.length, 40_000);
    assert.equal(over?.truncated, true);
    assert.equal(over?.text.length, 40_000);
    assert.deepEqual(
      slack.callsTo('chat.postMessage').map((c) => c.truncated ?? false),
      [false, true],
    );
  });

  it('answers chat.postEphemeral with a message_ts and chat.delete removes a message', async () => {
    const client = webClientFor(slack);
    const ephemeral = await client.chat.postEphemeral({ channel: 'C1', user: 'U1', text: 'only you' });
    assert.match(ephemeral.message_ts ?? '', /^\d+\.\d{6}$/);
    assert.equal(slack.messages('C1').length, 0);
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'bye' });
    const deleted = await client.chat.delete({ channel: 'C1', ts: posted.ts ?? '' });
    assert.equal(deleted.ts, posted.ts);
    assert.equal(slack.messages('C1').length, 0);
    const again = await platformError(client.chat.delete({ channel: 'C1', ts: posted.ts ?? '' }));
    assert.equal(again.error, 'message_not_found');
  });

  it('answers chat.getPermalink, with thread parameters for a reply', async () => {
    const client = webClientFor(slack);
    const parent = await client.chat.postMessage({ channel: 'C1', text: 'p' });
    const reply = await client.chat.postMessage({ channel: 'C1', text: 'r', thread_ts: parent.ts ?? '' });
    const link = await client.chat.getPermalink({ channel: 'C1', message_ts: parent.ts ?? '' });
    assert.equal(
      link.permalink,
      `https://fake-team.slack.com/archives/C1/p${(parent.ts ?? '').replace('.', '')}`,
    );
    const replyLink = await client.chat.getPermalink({ channel: 'C1', message_ts: reply.ts ?? '' });
    assert.match(replyLink.permalink ?? '', new RegExp(`\\?thread_ts=${parent.ts}&cid=C1$`));
  });

  it('accepts chat.unfurl and checks the unfurl blocks', async () => {
    const client = webClientFor(slack);
    const preview = { blocks: [{ type: 'section', text: { type: 'mrkdwn', text: 'Build #3 passed' } }] };
    await client.chat.unfurl({
      channel: 'C1',
      ts: '1700000000.000100',
      unfurls: { 'https://ci/b/3': preview },
    });
    assert.deepEqual(slack.callsTo('chat.unfurl')[0]?.args.unfurls, { 'https://ci/b/3': preview });
    const tooLong = { blocks: [{ type: 'header', text: { type: 'plain_text', text: 'x'.repeat(151) } }] };
    const rejected = await platformError(
      client.chat.unfurl({ channel: 'C1', ts: '1700000000.000100', unfurls: { 'https://ci/b/3': tooLong } }),
    );
    assert.equal(rejected.error, 'invalid_blocks');
  });

  it('answers conversations.info, conversations.open and users.info', async () => {
    const client = webClientFor(slack);
    const info = await client.conversations.info({ channel: 'C1' });
    assert.equal(info.channel?.id, 'C1');
    assert.equal(info.channel?.is_channel, true);
    assert.equal(info.channel?.is_member, true);
    assert.equal(
      (await platformError(client.conversations.info({ channel: 'nope' }))).error,
      'channel_not_found',
    );

    const dm = await client.conversations.open({ users: 'U42' });
    assert.equal(dm.channel?.id, 'DU42');
    const full = await client.conversations.open({ users: 'U42', return_im: true });
    assert.equal(full.channel?.is_im, true);
    assert.equal(
      (await platformError(client.conversations.open({ users: '' }))).error,
      'users_list_not_supplied',
    );

    slack.setUser('U42', { real_name: 'Ada Lovelace', profile: { email: 'ada@example.com' } });
    const user = await client.users.info({ user: 'U42' });
    assert.equal(user.user?.real_name, 'Ada Lovelace');
    assert.equal(user.user?.profile?.email, 'ada@example.com');
    assert.equal(user.user?.profile?.display_name, 'user-u42');
    assert.equal((await platformError(client.users.info({ user: 'bogus' }))).error, 'user_not_found');
  });

  it('refuses unknown methods and bad tokens with HTTP 200 and ok:false', async () => {
    const unknown = await fetch(`${slack.apiUrl}chat.teleport`, {
      method: 'POST',
      headers: { Authorization: `Bearer ${FAKE_IDENTITY.botToken}` },
    });
    assert.equal(unknown.status, 200);
    assert.deepEqual(await unknown.json(), { ok: false, error: 'unknown_method' });

    const noToken = await fetch(`${slack.apiUrl}auth.test`, { method: 'POST' });
    assert.deepEqual(await noToken.json(), { ok: false, error: 'not_authed' });
    assert.equal((await platformError(webClientFor(slack, 'xoxb-wrong').auth.test())).error, 'invalid_auth');
    assert.equal(
      (await platformError(webClientFor(slack, FAKE_IDENTITY.appToken).auth.test())).error,
      'not_allowed_token_type',
    );
    assert.deepEqual(
      slack.rejected().map((c) => c.error),
      ['unknown_method', 'not_authed', 'invalid_auth', 'not_allowed_token_type'],
    );
  });

  it('fails the next calls on demand, then recovers', async () => {
    const client = webClientFor(slack);
    slack.failNext('chat.postMessage', 'channel_not_found', 2);
    assert.equal(
      (await platformError(client.chat.postMessage({ channel: 'C1', text: 'a' }))).error,
      'channel_not_found',
    );
    assert.equal(
      (await platformError(client.chat.postMessage({ channel: 'C1', text: 'b' }))).error,
      'channel_not_found',
    );
    const third = await client.chat.postMessage({ channel: 'C1', text: 'c' });
    assert.equal(third.ok, true);
  });

  it('waits for a call that comes later, and times out naming what it saw', async () => {
    const client = webClientFor(slack);
    const waiting = slack.waitForCall('chat.update', (c) => c.args.text === 'done', 1000);
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'x' });
    await client.chat.update({ channel: 'C1', ts: posted.ts ?? '', text: 'done' });
    assert.equal((await waiting).args.ts, posted.ts);
    await assert.rejects(
      slack.waitForCall('views.open', undefined, 50),
      /views\.open.*chat\.postMessage, chat\.update/,
    );
  });
});
