import { createHmac, randomInt, timingSafeEqual } from 'node:crypto';
import { EventEmitter } from 'node:events';
import { createServer, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';

/**
 * A local server that speaks the Pusher Channels WebSocket protocol (version 7), enough for the
 * app's realtime client and for pusher-js itself: handshake, public and private channels (auth
 * checked with HMAC-SHA256 like the real service), pings both ways, and close codes. Tests
 * publish with `trigger` and break the connection with `dropAll` / `refuseConnections`.
 */

export interface FakePusherOptions {
  key?: string;
  secret?: string;
  /** Prefix before /app/<key>, as a relay behind a firewall would have (e.g. '/pusher'). */
  path?: string;
  /** Sent in connection_established; the server pings a socket that stays quiet this long. */
  activityTimeoutSec?: number;
  /** How long the server waits for any frame after its own ping before closing with 4201. */
  pongTimeoutSec?: number;
}

export interface FakePusher {
  key: string;
  secret: string;
  host: '127.0.0.1';
  port: number;
  path: string;
  /** Sends an event to every socket subscribed to `channel`; returns how many got it. A string
   * `data` is sent as is (as the real HTTP API does), anything else JSON-encoded into a string. */
  trigger(channel: string, event: string, data: unknown): number;
  /** Sends one raw text frame to every connected socket (malformed frames, object `data`). */
  sendRaw(text: string): number;
  /** channel -> number of sockets subscribed (channels without subscribers are left out). */
  subscriptions(): Map<string, number>;
  /** Sockets that completed the handshake and are still open. */
  connections(): number;
  waitForSubscription(channel: string, timeoutMs?: number): Promise<void>;
  /** Resolves once `condition` holds, checked after every change the server sees. */
  waitFor(condition: () => boolean, description: string, timeoutMs?: number): Promise<void>;
  /** Closes every socket with `code` (e.g. 4200), or destroys it abruptly (the client sees 1006)
   * when `code` is left out or is 1006. */
  dropAll(code?: number): void;
  /** While on, upgrade requests are answered 503 and no socket opens (an outage). */
  refuseConnections(on: boolean): void;
  /** How many upgrade requests were answered 503 so far. */
  refusedCount(): number;
  /** Every frame received from clients, parsed (a frame that is not JSON is kept as its text). */
  received: Array<{ socketId: string; message: unknown }>;
  close(): Promise<void>;
}

interface Client {
  socketId: string;
  ws: WebSocket;
  channels: Set<string>;
  idleTimer?: NodeJS.Timeout;
  pongTimer?: NodeJS.Timeout;
}

/** Channel names the real service accepts. */
const CHANNEL_NAME = /^[A-Za-z0-9_\-=@,.;]{1,164}$/;

export function signChannel(secret: string, socketId: string, channel: string): string {
  return createHmac('sha256', secret).update(`${socketId}:${channel}`).digest('hex');
}

/** The auth string a CI API's `/pusher/auth` would return for this socket and channel. */
export function channelAuth(key: string, secret: string, socketId: string, channel: string): string {
  return `${key}:${signChannel(secret, socketId, channel)}`;
}

function frame(event: string, data: unknown, channel?: string): string {
  const encoded = typeof data === 'string' ? data : JSON.stringify(data);
  return JSON.stringify(channel === undefined ? { event, data: encoded } : { event, channel, data: encoded });
}

function sameText(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

function parseJson(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch {
    return { ok: false };
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** `data` of a client frame: pusher-js sends an object, other clients a JSON string. */
function frameData(message: Record<string, unknown>): Record<string, unknown> {
  const data = message.data;
  if (typeof data === 'string') {
    const parsed = parseJson(data);
    return parsed.ok && isRecord(parsed.value) ? parsed.value : {};
  }
  return isRecord(data) ? data : {};
}

function rejectUpgrade(socket: Duplex, status: number, text: string): void {
  socket.end(`HTTP/1.1 ${status} ${text}\r\nConnection: close\r\nContent-Length: 0\r\n\r\n`);
  socket.destroy();
}

export async function startFakePusher(options: FakePusherOptions = {}): Promise<FakePusher> {
  const key = options.key ?? 'fake-app-key';
  const secret = options.secret ?? 'fake-app-secret';
  const path = (options.path ?? '').replace(/\/+$/, '');
  const activityTimeoutMs = (options.activityTimeoutSec ?? 120) * 1000;
  const pongTimeoutMs = (options.pongTimeoutSec ?? 30) * 1000;

  const clients = new Set<Client>();
  const changes = new EventEmitter();
  changes.setMaxListeners(0);
  const changed = () => changes.emit('change');
  const received: FakePusher['received'] = [];
  let refusing = false;
  let refusedCount = 0;

  const http = createServer((_req, res) => {
    res.statusCode = 404;
    res.end();
  });
  const wss = new WebSocketServer({ noServer: true });

  function send(client: Client, text: string): void {
    if (client.ws.readyState === client.ws.OPEN) client.ws.send(text);
  }

  function sendError(client: Client, code: number | null, message: string): void {
    send(client, JSON.stringify({ event: 'pusher:error', data: { code, message } }));
  }

  function subscriptionError(client: Client, channel: string, type: string, error: string, status: number) {
    send(client, frame('pusher:subscription_error', { type, error, status }, channel));
  }

  function clearTimers(client: Client): void {
    clearTimeout(client.idleTimer);
    clearTimeout(client.pongTimer);
  }

  /** The real service pings a quiet socket after the activity timeout and gives up after the pong timeout. */
  function noteActivity(client: Client): void {
    clearTimers(client);
    client.idleTimer = setTimeout(() => {
      send(client, frame('pusher:ping', {}));
      client.pongTimer = setTimeout(() => client.ws.close(4201, 'Pong reply not received'), pongTimeoutMs);
    }, activityTimeoutMs);
  }

  function subscribe(client: Client, data: Record<string, unknown>): void {
    const channel = data.channel;
    if (typeof channel !== 'string' || !CHANNEL_NAME.test(channel)) {
      sendError(client, null, `Invalid channel name: ${String(channel)}`);
      return;
    }
    if (channel.startsWith('presence-') || channel.startsWith('private-encrypted-')) {
      subscriptionError(
        client,
        channel,
        'UnsupportedChannel',
        'This fake serves public and private channels only',
        400,
      );
      return;
    }
    if (channel.startsWith('private-')) {
      const auth = typeof data.auth === 'string' ? data.auth : '';
      const expected = channelAuth(key, secret, client.socketId, channel);
      if (!sameText(auth, expected)) {
        subscriptionError(
          client,
          channel,
          'AuthError',
          `Invalid signature: Expected HMAC SHA256 hex digest of ${client.socketId}:${channel}, but got ${auth}`,
          401,
        );
        return;
      }
    }
    client.channels.add(channel);
    send(client, frame('pusher_internal:subscription_succeeded', {}, channel));
    changed();
  }

  function handleMessage(client: Client, raw: RawData, isBinary: boolean): void {
    noteActivity(client);
    if (isBinary) {
      sendError(client, null, 'Binary frames are not supported');
      return;
    }
    const text = raw.toString();
    const parsed = parseJson(text);
    received.push({ socketId: client.socketId, message: parsed.ok ? parsed.value : text });
    changed();
    const message = parsed.ok && isRecord(parsed.value) ? parsed.value : undefined;
    const event = message?.event;
    if (message === undefined || typeof event !== 'string') {
      sendError(client, null, 'Invalid message: expected a JSON object with an event name');
      return;
    }
    switch (event) {
      case 'pusher:ping':
        send(client, frame('pusher:pong', {}));
        return;
      case 'pusher:pong':
        return;
      case 'pusher:subscribe':
        subscribe(client, frameData(message));
        return;
      case 'pusher:unsubscribe': {
        const channel = frameData(message).channel;
        if (typeof channel === 'string' && client.channels.delete(channel)) changed();
        return;
      }
      default:
        if (event.startsWith('client-')) {
          sendError(client, null, 'Client events are not enabled for this app');
        }
    }
  }

  function accept(ws: WebSocket, request: IncomingMessage, appKey: string): void {
    const socketId = `${randomInt(1, 2 ** 31)}.${randomInt(1, 2 ** 31)}`;
    const client: Client = { socketId, ws, channels: new Set() };
    ws.on('error', () => {
      // A client that vanishes mid-frame; the close handler below does the clean-up.
    });
    ws.on('close', () => {
      clearTimers(client);
      if (clients.delete(client)) changed();
    });
    const query = new URL(request.url ?? '/', 'http://fake').searchParams;
    if (appKey !== key) {
      sendError(
        client,
        4001,
        `App key ${appKey} not in this cluster. Did you forget to specify the cluster?`,
      );
      ws.close(4001, 'Application does not exist');
      return;
    }
    if (query.get('protocol') !== '7') {
      sendError(client, 4007, 'Unsupported protocol version');
      ws.close(4007, 'Unsupported protocol version');
      return;
    }
    clients.add(client);
    ws.on('message', (raw, isBinary) => handleMessage(client, raw, isBinary));
    send(
      client,
      frame('pusher:connection_established', {
        socket_id: socketId,
        activity_timeout: activityTimeoutMs / 1000,
      }),
    );
    noteActivity(client);
    changed();
  }

  http.on('upgrade', (request: IncomingMessage, socket: Duplex, head: Buffer) => {
    if (refusing) {
      rejectUpgrade(socket, 503, 'Service Unavailable');
      refusedCount += 1;
      changed();
      return;
    }
    const pathname = new URL(request.url ?? '/', 'http://fake').pathname;
    const prefix = `${path}/app/`;
    if (!pathname.startsWith(prefix) || pathname.length === prefix.length) {
      rejectUpgrade(socket, 404, 'Not Found');
      return;
    }
    const appKey = decodeURIComponent(pathname.slice(prefix.length));
    wss.handleUpgrade(request, socket, head, (ws) => accept(ws, request, appKey));
  });

  await new Promise<void>((resolve, reject) => {
    http.once('error', reject);
    http.listen(0, '127.0.0.1', () => resolve());
  });
  const port = (http.address() as AddressInfo).port;

  function subscriptions(): Map<string, number> {
    const counts = new Map<string, number>();
    for (const client of clients) {
      for (const channel of client.channels) counts.set(channel, (counts.get(channel) ?? 0) + 1);
    }
    return counts;
  }

  function waitFor(condition: () => boolean, description: string, timeoutMs = 5000): Promise<void> {
    if (condition()) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const check = () => {
        if (!condition()) return;
        clearTimeout(timer);
        changes.off('change', check);
        resolve();
      };
      const timer = setTimeout(() => {
        changes.off('change', check);
        reject(new Error(`fake Pusher: timed out after ${timeoutMs} ms waiting for ${description}`));
      }, timeoutMs);
      changes.on('change', check);
    });
  }

  return {
    key,
    secret,
    host: '127.0.0.1',
    port,
    path,
    received,
    trigger(channel, event, data) {
      const text = frame(event, data, channel);
      let count = 0;
      for (const client of clients) {
        if (!client.channels.has(channel)) continue;
        send(client, text);
        count += 1;
      }
      return count;
    },
    sendRaw(text) {
      for (const client of clients) send(client, text);
      return clients.size;
    },
    subscriptions,
    connections: () => clients.size,
    waitFor,
    waitForSubscription: (channel, timeoutMs) =>
      waitFor(() => subscriptions().has(channel), `a subscription to ${channel}`, timeoutMs),
    dropAll(code) {
      for (const client of [...clients]) {
        clearTimers(client);
        clients.delete(client);
        if (code === undefined || code === 1006) client.ws.terminate();
        else client.ws.close(code, 'Closed by the fake server');
      }
      changed();
    },
    refuseConnections(on) {
      refusing = on;
    },
    refusedCount: () => refusedCount,
    async close() {
      for (const client of clients) clearTimers(client);
      clients.clear();
      // Every upgraded socket, including ones turned away during the handshake.
      for (const ws of wss.clients) ws.terminate();
      wss.close();
      http.closeAllConnections();
      await new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
