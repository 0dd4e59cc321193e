import assert from 'node:assert/strict';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { webApi } from '@slack/bolt';
import { createSlackFetch } from '../../src/slack/web-fetch.js';

type Handler = (req: IncomingMessage, body: string, res: ServerResponse) => void;

describe('createSlackFetch (the Slack clients’ HTTP)', () => {
  let handler: Handler = (_req, _body, res) => res.end();
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => {
      body += chunk.toString();
    });
    req.on('end', () => handler(req, body, res));
  });
  let base = '';
  before(async () => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}/api/`;
  });
  after(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const client = (options: webApi.WebClientOptions = {}) =>
    new webApi.WebClient('xoxb-test', { slackApiUrl: base, fetch: createSlackFetch(), ...options });

  it('sends what the Web API client asks for and gives back its answer', async () => {
    let seen: { method?: string; url?: string; auth?: string; type?: string; body: string } = { body: '' };
    handler = (req, body, res) => {
      seen = {
        method: req.method,
        url: req.url,
        auth: req.headers.authorization,
        type: req.headers['content-type'],
        body,
      };
      res.writeHead(200, { 'content-type': 'application/json', 'x-oauth-scopes': 'chat:write,commands' });
      res.end(JSON.stringify({ ok: true, channel: 'C1', ts: '1.000100' }));
    };
    const result = await client().chat.postMessage({ channel: 'C1', text: 'hello & <you>' });
    assert.equal(result.ts, '1.000100');
    assert.deepEqual(result.response_metadata?.scopes, ['chat:write', 'commands'], 'headers are readable');
    assert.equal(seen.method, 'POST');
    assert.equal(seen.url, '/api/chat.postMessage');
    assert.equal(seen.auth, 'Bearer xoxb-test');
    assert.match(seen.type ?? '', /application\/x-www-form-urlencoded/);
    assert.equal(new URLSearchParams(seen.body).get('text'), 'hello & <you>');
  });

  it('passes Slack’s errors and rate limits through as the client reports them', async () => {
    handler = (_req, _body, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ ok: false, error: 'channel_not_found' }));
    };
    await assert.rejects(
      client().chat.postMessage({ channel: 'C0', text: 'x' }),
      (error: webApi.WebAPIPlatformError) => {
        assert.equal(error.data.error, 'channel_not_found');
        return true;
      },
    );
    handler = (_req, _body, res) => {
      res.writeHead(429, { 'retry-after': '7' });
      res.end();
    };
    await assert.rejects(
      client({ rejectRateLimitedCalls: true }).chat.update({ channel: 'C1', ts: '1.0', text: 'x' }),
      (error: webApi.WebAPIRateLimitedError) => {
        assert.equal(error.code, webApi.ErrorCode.RateLimitedError);
        assert.equal(error.retryAfter, 7);
        return true;
      },
    );
    handler = (_req, _body, res) => {
      res.writeHead(502, { 'content-type': 'text/plain' });
      res.end('bad gateway');
    };
    await assert.rejects(
      client({ retryConfig: { retries: 0 } }).chat.postMessage({ channel: 'C1', text: 'x' }),
      (error: webApi.WebAPIHTTPError) => {
        assert.equal(error.code, webApi.ErrorCode.HTTPError);
        assert.equal(error.statusCode, 502);
        assert.equal(error.body, 'bad gateway');
        return true;
      },
    );
  });

  it('reports a refused connection as a request error', async () => {
    const closed = new webApi.WebClient('xoxb-test', {
      slackApiUrl: 'http://127.0.0.1:1/api/',
      fetch: createSlackFetch(),
      retryConfig: { retries: 0 },
      logLevel: webApi.LogLevel.ERROR,
    });
    await assert.rejects(closed.auth.test(), (error: webApi.WebAPIRequestError) => {
      assert.equal(error.code, webApi.ErrorCode.RequestError);
      return true;
    });
  });
});
