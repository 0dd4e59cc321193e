import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { webApi } from '@slack/bolt';
import { classifyFailure } from '../../../src/slack/outbox/errors.js';
import { createSlackJsonCaller, type SlackCaller } from '../../../src/slack/outbox/index.js';
import { postedMessage } from '../../../src/slack/outbox/send.js';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from '../../fakes/slack/index.js';
import { outboxCallerFor } from '../../helpers/outbox-caller.js';
import { deferred } from './world.js';

async function failure(call: Promise<unknown>): Promise<unknown> {
  return call.then(
    () => assert.fail('expected the call to fail'),
    (error: unknown) => error,
  );
}

describe("the outbox's Web API client", () => {
  let slack: FakeSlack;
  let caller: SlackCaller;
  before(async () => {
    slack = await startFakeSlack({ enforceRateLimits: true });
    caller = outboxCallerFor(slack);
  });
  afterEach(() => slack.reset());
  after(() => slack.close());

  it('posts the arguments as JSON with the bot token and returns the answer', async () => {
    const blocks = [{ type: 'section', text: { type: 'mrkdwn', text: '*build #7* passed' } }];
    const answer = await caller.apiCall('chat.postMessage', {
      channel: 'C1',
      text: 'build #7 passed',
      blocks,
    });

    assert.equal(answer.ok, true);
    const [call] = slack.callsTo('chat.postMessage');
    assert.equal(call?.token, FAKE_IDENTITY.botToken);
    assert.deepEqual(call?.args, { channel: 'C1', text: 'build #7 passed', blocks });
    assert.equal(postedMessage(answer)?.ts, slack.messages('C1')[0]?.ts);
  });

  it('appends the method to an API URL given without its trailing slash', async () => {
    const bare = createSlackJsonCaller({
      token: FAKE_IDENTITY.botToken,
      apiUrl: slack.apiUrl.replace(/\/$/, ''),
      userAgent: 'test',
    });
    const answer = await bare.apiCall('chat.postMessage', { channel: 'C1', text: 'hello' });
    assert.equal(answer.ok, true);
  });

  it('throws ok:false answers as platform errors, with the answer as data', async () => {
    slack.setChannel('C9', { is_member: false });
    const error = await failure(caller.apiCall('chat.postMessage', { channel: 'C9', text: 'x' }));

    assert.ok(error instanceof webApi.WebAPIPlatformError);
    assert.equal(error.data.error, 'not_in_channel');
    assert.deepEqual(classifyFailure(error), { kind: 'permanent', code: 'not_in_channel' });
  });

  it('sends no Authorization header without a token (Slack answers not_authed)', async () => {
    const anonymous = createSlackJsonCaller({ token: undefined, apiUrl: slack.apiUrl, userAgent: 'test' });
    const error = await failure(anonymous.apiCall('chat.postMessage', { channel: 'C1', text: 'x' }));
    assert.ok(error instanceof webApi.WebAPIPlatformError);
    assert.equal(error.data.error, 'not_authed');
  });

  it('throws a 429 as a rate-limit error carrying Retry-After', async () => {
    slack.rateLimit('chat.update', 60_000, 7);
    const error = await failure(caller.apiCall('chat.update', { channel: 'C1', ts: '1.2', text: 'x' }));

    assert.ok(error instanceof webApi.WebAPIRateLimitedError);
    assert.equal(error.retryAfter, 7);
    assert.deepEqual(classifyFailure(error), { kind: 'rate_limited', retryAfterMs: 7000 });
  });

  it('throws other HTTP statuses as HTTP errors, 5xx transient', async () => {
    slack.interceptCalls(() => ({ status: 503 }));
    const error = await failure(caller.apiCall('chat.postMessage', { channel: 'C1', text: 'x' }));

    assert.ok(error instanceof webApi.WebAPIHTTPError);
    assert.equal(error.statusCode, 503);
    assert.equal(error.body, 'upstream trouble');
    assert.deepEqual(classifyFailure(error), { kind: 'transient', code: 'http_error', status: 503 });
  });

  it('throws a dropped connection as a request error (transient)', async () => {
    slack.interceptCalls(() => ({ drop: true }));
    const error = await failure(caller.apiCall('chat.postMessage', { channel: 'C1', text: 'x' }));

    assert.ok(error instanceof webApi.WebAPIRequestError);
    assert.equal(classifyFailure(error).kind, 'transient');
  });

  it('gives up on a call that gets no answer within its timeout', async () => {
    const gate = deferred();
    slack.interceptCalls(() => ({ hold: gate.promise }));
    const impatient = createSlackJsonCaller({
      token: FAKE_IDENTITY.botToken,
      apiUrl: slack.apiUrl,
      userAgent: 'test',
      timeoutMs: 200,
    });
    const started = Date.now();
    const error = await failure(impatient.apiCall('chat.postMessage', { channel: 'C1', text: 'x' }));
    gate.resolve();

    assert.ok(error instanceof webApi.WebAPIRequestError);
    assert.ok(Date.now() - started < 5_000, 'failed near its timeout, not undici’s five minutes');
  });
});

describe("the outbox's Web API client and answers that are not Slack's", () => {
  let server: Server;
  let apiUrl: string;
  let body = '';
  before(async () => {
    server = createServer((_request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' }).end(body);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    apiUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const answers: Array<[string, string]> = [
    ['an HTML page', '<html>maintenance</html>'],
    ['JSON without ok', '{"channel":"C1"}'],
    ['a JSON array', '[true]'],
  ];
  for (const [name, text] of answers) {
    it(`throws ${name} with status 200 as a request error (transient)`, async () => {
      body = text;
      const caller = createSlackJsonCaller({ token: 'xoxb-1', apiUrl, userAgent: 'test' });
      const error = await failure(caller.apiCall('chat.postMessage', { channel: 'C1', text: 'x' }));

      assert.ok(error instanceof webApi.WebAPIRequestError);
      assert.match(error.original.message, /chat\.postMessage/);
      assert.equal(classifyFailure(error).kind, 'transient');
    });
  }
});
