/**
 * The API server: records each request, answers CORS preflights, applies injected faults, checks
 * User-Agent, then hands the request to V3 (version header = 3) or to the V2.1 routes, which check
 * Accept and the token before the handler runs.
 */
import { setMaxListeners } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { invalidToken, lookUpToken, type TokenLookup, unauthenticated } from './auth.js';
import { type FaultRegistry, MALFORMED_BODY } from './faults.js';
import { type Ctx, Halt, header, notFound, type Reply, v2Error } from './http.js';
import { matchRoute, negotiate } from './router.js';
import { V2_ROUTES } from './routes/index.js';
import type { FakeCiState } from './state.js';
import type { RecordedRequest, ResolvedOptions } from './types.js';
import { handleV3 } from './v3.js';
import { v3Error } from './v3-shapes.js';

export interface ApiServerDeps {
  state: FakeCiState;
  options: ResolvedOptions;
  faults: FaultRegistry;
  archiveUrl: string;
  requests: RecordedRequest[];
}

export interface ApiServer {
  url: string;
  close(): Promise<void>;
}

const CORS = {
  'access-control-allow-origin': '*',
  'access-control-allow-credentials': 'true',
  'access-control-expose-headers': 'Content-Type, Cache-Control, Expires, Etag, Last-Modified',
};

/** `name/version`, optionally followed by anything (`ci-slack/1.2.0 node/20`). */
const USER_AGENT = /^[A-Za-z0-9._~+-]+\/[^\s/]+/;

interface Incoming {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingMessage['headers'];
  body: string;
}

function dispatch(deps: ApiServerDeps, request: Incoming): Reply {
  const { state, options } = deps;
  const token = lookUpToken(state, header(request.headers, 'authorization'));
  const isV3 = header(request.headers, options.versionHeader)?.trim() === '3';
  const userAgent = header(request.headers, 'user-agent') ?? '';
  if (!USER_AGENT.test(userAgent)) {
    const message = 'User-Agent must name the client and its version, like "my-client/1.2.3"';
    return isV3 ? v3Error('wrong_params', message) : v2Error(400, 'user_agent_required', message);
  }
  if (isV3) return handleV3({ ...request, state, options, token });
  return dispatchV2(deps, request, token);
}

function dispatchV2(deps: ApiServerDeps, request: Incoming, token: TokenLookup): Reply {
  const found = matchRoute(V2_ROUTES, request.method, request.path);
  if (!found) return notFound();
  try {
    const accept = negotiate(header(request.headers, 'accept'), found.route, deps.options.mediaType);
    if (token.kind === 'invalid') return invalidToken();
    const user = token.kind === 'valid' ? token.user : undefined;
    if (found.route.required && !user) return unauthenticated();
    const ctx: Ctx = {
      ...request,
      params: found.params,
      state: deps.state,
      options: deps.options,
      user,
      accept,
      archiveUrl: deps.archiveUrl,
    };
    return found.route.handle(ctx);
  } catch (error) {
    if (error instanceof Halt) return error.reply;
    throw error;
  }
}

function send(res: ServerResponse, request: Incoming, reply: Reply): void {
  const headers: Record<string, string> = { ...CORS, ...reply.headers };
  let body = '';
  if (reply.json !== undefined) {
    body = JSON.stringify(reply.json);
    headers['content-type'] = reply.contentType ?? 'application/json;charset=utf-8';
    const callback = request.query.get('callback');
    // JSONP (spec 4.21): the JSON wrapped in a call of the given function.
    if (callback !== null && /^[\w.$]+$/.test(callback)) {
      body = `/**/${callback}(${body})`;
      headers['content-type'] = 'application/javascript;charset=utf-8';
    }
  } else if (reply.text !== undefined) {
    body = reply.text;
    headers['content-type'] = reply.contentType ?? 'text/plain; charset=utf-8';
  }
  headers['content-length'] = String(Buffer.byteLength(body));
  res.writeHead(reply.status, headers);
  res.end(request.method === 'HEAD' || reply.status === 204 ? undefined : body);
}

function preflight(res: ServerResponse): void {
  res.writeHead(204, {
    ...CORS,
    'access-control-allow-methods': 'HEAD, GET, POST, PATCH, PUT, DELETE',
    'access-control-allow-headers': 'Content-Type, Authorization, Accept, If-None-Match, If-Modified-Since',
    'access-control-max-age': '86400',
  });
  res.end();
}

async function readIncoming(req: IncomingMessage): Promise<Incoming> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  const [path = '/', search = ''] = (req.url ?? '/').split('?');
  return {
    method: (req.method ?? 'GET').toUpperCase(),
    path,
    query: new URLSearchParams(search),
    headers: req.headers,
    body: Buffer.concat(chunks).toString('utf8'),
  };
}

export async function startApiServer(deps: ApiServerDeps): Promise<ApiServer> {
  const closing = new AbortController();
  // Every delayed request listens on this one signal; more than 10 at once is expected, not a leak.
  setMaxListeners(0, closing.signal);

  async function onRequest(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const request = await readIncoming(req);
    deps.requests.push({ ...request });
    if (request.method === 'OPTIONS') return preflight(res);
    const fault = deps.faults.take(request.method, request.path);
    if (fault && 'drop' in fault) {
      req.socket.destroy();
      return;
    }
    if (fault && 'status' in fault) {
      const body = fault.body ?? '';
      res.writeHead(fault.status, {
        ...CORS,
        'content-length': String(Buffer.byteLength(body)),
        ...fault.headers,
      });
      res.end(body);
      return;
    }
    if (fault && 'malformed' in fault) {
      res.writeHead(200, { ...CORS, 'content-type': 'application/json;charset=utf-8' });
      res.end(MALFORMED_BODY);
      return;
    }
    if (fault && 'delayMs' in fault) await sleep(fault.delayMs, undefined, { signal: closing.signal });
    send(res, request, dispatch(deps, request));
  }

  const server: Server = createServer((req, res) => {
    onRequest(req, res).catch((error: unknown) => {
      if (closing.signal.aborted) return;
      // A bug in the fake itself: make it loud rather than a hanging request.
      res.writeHead(500, { 'content-type': 'text/plain' });
      res.end(`fake CI crashed: ${error instanceof Error ? error.stack : String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        closing.abort();
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
