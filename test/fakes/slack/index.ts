/**
 * A fake Slack for tests: a local HTTP server that answers the Web API (point @slack/web-api or
 * Bolt at it with `slackApiUrl: fake.apiUrl`), serves response_urls and a Socket Mode endpoint,
 * records everything the app says, and enforces Slack's Block Kit limits, trigger expiry, view
 * stack depth and (optionally) rate limits.
 *
 *   const slack = await startFakeSlack();
 *   t.after(() => slack.close());
 *   const client = new WebClient(FAKE_IDENTITY.botToken, { slackApiUrl: slack.apiUrl });
 */
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { FakeContext } from './context.js';
import { decodeCall } from './decode.js';
import { Directory } from './directory.js';
import { FAKE_IDENTITY, type Identity } from './identity.js';
import { MessageStore } from './messages.js';
import { chatMethods } from './methods/chat.js';
import { viewMethods } from './methods/views.js';
import { workspaceMethods } from './methods/workspace.js';
import { RateLimiter } from './rate-limits.js';
import { ResponseUrls } from './response-urls.js';
import { SocketModeServer } from './socket-mode.js';
import type { CallInterception, FakeSlack, FakeSlackOptions, Json } from './types.js';
import { TriggerRegistry, ViewStore } from './views.js';
import { WebApi } from './web-api.js';

export { BLOCK_LIMITS } from './block-kit.js';
export { FAKE_IDENTITY } from './identity.js';
export { POST_MESSAGE_BURST, TIER_LIMITS_PER_MINUTE } from './rate-limits.js';
export { RESPONSE_URL_LIFETIME_MS, RESPONSE_URL_MAX_USES } from './response-urls.js';
export type * from './types.js';
export { MAX_VIEW_STACK, TRIGGER_LIFETIME_MS } from './views.js';

const DEFAULT_WAIT_MS = 2000;

export async function startFakeSlack(options: FakeSlackOptions = {}): Promise<FakeSlack> {
  const now = options.now ?? Date.now;
  const ids: Identity = {
    ...FAKE_IDENTITY,
    botToken: options.botToken ?? FAKE_IDENTITY.botToken,
    appToken: options.appToken ?? FAKE_IDENTITY.appToken,
    teamId: options.teamId ?? FAKE_IDENTITY.teamId,
    botUserId: options.botUserId ?? FAKE_IDENTITY.botUserId,
  };
  let origin = '';
  const socketMode = new SocketModeServer(
    ids,
    () => origin.replace(/^http/, 'ws'),
    options.socketPingIntervalMs ?? 5000,
  );
  const ctx: FakeContext = {
    ids,
    now,
    messages: new MessageStore(now),
    views: new ViewStore(ids, now),
    triggers: new TriggerRegistry(now),
    directory: new Directory(ids),
    socketUrl: () => socketMode.issueUrl(),
  };
  const limiter = new RateLimiter(now, options.enforceRateLimits ?? false, options.rateLimits);
  const webApi = new WebApi(ctx, limiter, { ...chatMethods, ...viewMethods, ...workspaceMethods });
  const responseUrls = new ResponseUrls(ctx, () => origin);
  let intercept: ((method: string) => CallInterception) | undefined;

  const server = createServer(async (request, response) => {
    try {
      await route(request, response, await readBody(request));
    } catch (error) {
      // A bug in the fake must show up in the test that met it, not as a hung request.
      sendJson(response, 500, { ok: false, error: 'fatal_error', detail: String(error) });
    }
  });
  const route = async (request: IncomingMessage, response: ServerResponse, rawBody: string) => {
    const url = new URL(request.url ?? '/', origin);
    if (url.pathname.startsWith('/api/')) {
      const method = url.pathname.slice('/api/'.length);
      const fault = intercept?.(method);
      if (fault !== undefined && 'hold' in fault) await fault.hold;
      if (fault !== undefined && 'drop' in fault) {
        request.socket.destroy();
        return;
      }
      if (fault !== undefined && 'status' in fault) {
        response.writeHead(fault.status, { 'Content-Type': 'text/plain' }).end('upstream trouble');
        return;
      }
      const answer = webApi.answer(method, decodeCall(request.headers, rawBody, url.searchParams));
      sendJson(response, answer.status, answer.body, answer.headers);
    } else if (url.pathname.startsWith('/hooks/') && request.method === 'POST') {
      const answer = responseUrls.answer(url.pathname, request.headers['content-type'] ?? '', rawBody);
      sendJson(response, answer.status, answer.body);
    } else {
      sendJson(response, 404, { ok: false, error: 'not_found' });
    }
  };
  server.on('upgrade', (request, socket, head) => socketMode.handleUpgrade(request, socket, head));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  return {
    apiUrl: `${origin}/api/`,
    calls: webApi.calls.items,
    callsTo: (method) => webApi.calls.items.filter((c) => c.method === method),
    rejected: () => webApi.calls.items.filter((c) => !c.ok && c.status === 200),
    waitForCall: (method, predicate = () => true, timeoutMs = DEFAULT_WAIT_MS) =>
      webApi.calls.waitFor(`a call to ${method}`, (c) => c.method === method && predicate(c), timeoutMs),
    responseUrl: (context) => responseUrls.create(context),
    responses: responseUrls.records.items,
    waitForResponse: (predicate = () => true, timeoutMs = DEFAULT_WAIT_MS) =>
      responseUrls.records.waitFor('a post to a response_url', predicate, timeoutMs),
    messages: (channel) => ctx.messages.list(channel),
    views: () => ctx.views.all(),
    homeTab: (userId) => ctx.views.home(userId),
    issueTriggerId: (triggerOptions) => ctx.triggers.issue(triggerOptions?.viewId),
    rateLimit: (method, forMs, retryAfterSec) =>
      limiter.block(method, forMs, retryAfterSec ?? Math.max(1, Math.ceil(forMs / 1000))),
    rateLimitedCount: (method) => limiter.limitedCount(method),
    failNext: (method, error, times = 1) => webApi.failNext(method, error, times),
    interceptCalls: (next) => {
      intercept = next;
    },
    setUser: (userId, fields) => ctx.directory.setUser(userId, fields),
    setChannel: (channelId, fields) => ctx.directory.setChannel(channelId, fields),
    reset: () => {
      intercept = undefined;
      webApi.reset();
      responseUrls.reset();
      limiter.reset();
      ctx.messages.clear();
      ctx.views.clear();
      ctx.triggers.clear();
      ctx.directory.clear();
    },
    socketMode,
    close: async () => {
      webApi.calls.abort('the fake Slack closed');
      responseUrls.records.abort('the fake Slack closed');
      await socketMode.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

function readBody(request: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    request.on('error', reject);
  });
}

function sendJson(
  response: ServerResponse,
  status: number,
  body: Json,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  response.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  response.end(text);
}
