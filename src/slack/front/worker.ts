import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { parentPort, workerData } from 'node:worker_threads';
import { ANSWERED_BY_APP, type FromFront, type FrontSettings, type ToFront } from './protocol.js';
import { parseSlackBody, verifySlackRequest } from './verify.js';

/**
 * The HTTP front, in a thread of its own: it verifies Slack's signature and acknowledges at once,
 * so an acknowledgement never waits behind the app's work on the main thread; then it hands the
 * request over. A modal submission is the exception (its answer is the app's decision): the front
 * waits for it. Every other path is answered by the app (health, readiness, metrics).
 */

const settings = workerData as FrontSettings;
const port = parentPort;
if (!port) throw new Error('the HTTP front runs as a worker thread');
const toApp = (message: FromFront) => port.postMessage(message);

let nextId = 1;
const waiting = new Map<number, (message: ToFront) => void>();
port.on('message', (message: ToFront) => {
  waiting.get(message.id)?.(message);
  waiting.delete(message.id);
});

function askApp(message: FromFront & { id: number }, timeoutMs: number): Promise<ToFront | undefined> {
  return new Promise((resolve) => {
    const timer = setTimeout(() => {
      waiting.delete(message.id);
      resolve(undefined);
    }, timeoutMs);
    waiting.set(message.id, (answer) => {
      clearTimeout(timer);
      resolve(answer);
    });
    toApp(message);
  });
}

function reply(res: ServerResponse, status: number, body = '', contentType = 'text/plain'): void {
  res.writeHead(status, { 'content-type': contentType, 'content-length': Buffer.byteLength(body) });
  res.end(body);
}

async function readBody(req: IncomingMessage): Promise<string | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > settings.maxBodyBytes) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

const header = (req: IncomingMessage, name: string) => {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
};

async function fromSlack(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const received = performance.now();
  const rawBody = await readBody(req);
  if (rawBody === undefined) return reply(res, 413);
  const verdict = verifySlackRequest(settings.signingSecret, {
    timestamp: header(req, 'x-slack-request-timestamp'),
    signature: header(req, 'x-slack-signature'),
    rawBody,
  });
  if (verdict !== 'ok') return reply(res, 401);
  const body = parseSlackBody(header(req, 'content-type'), rawBody);
  if (!body) return reply(res, 400);
  if (body.ssl_check !== undefined) return reply(res, 200);
  if (body.type === 'url_verification') {
    return reply(res, 200, JSON.stringify({ challenge: body.challenge }), 'application/json');
  }

  const retry = header(req, 'x-slack-retry-num');
  const delivery = {
    type: 'delivery' as const,
    id: nextId++,
    body,
    retryNum: retry === undefined ? undefined : Number(retry),
    retryReason: header(req, 'x-slack-retry-reason'),
  };
  if (!ANSWERED_BY_APP.has(String(body.type))) {
    reply(res, 200);
    toApp({ ...delivery, awaitsAnswer: false, ackMs: performance.now() - received });
    return;
  }
  const answer = await askApp({ ...delivery, awaitsAnswer: true, ackMs: undefined }, settings.answerWaitMs);
  const response = answer?.type === 'answer' ? answer.response : undefined;
  if (response === undefined || response === null) reply(res, 200);
  else reply(res, 200, JSON.stringify(response), 'application/json');
}

async function route(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const answer = await askApp({ type: 'route', id: nextId++, method: req.method ?? 'GET', path }, 5_000);
  if (answer?.type !== 'route-answer') return reply(res, 503, 'the app did not answer');
  res.writeHead(answer.status, answer.headers);
  res.end(answer.body);
}

const server = createServer((req, res) => {
  const path = new URL(req.url ?? '/', 'http://localhost').pathname;
  const handle = req.method === 'POST' && path === settings.endpoint ? fromSlack : route;
  handle(req, res).catch(() => {
    if (!res.headersSent) reply(res, 500);
  });
});
server.listen(settings.port, () => {
  toApp({ type: 'listening', port: (server.address() as AddressInfo).port });
});
