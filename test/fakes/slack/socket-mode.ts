import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Duplex } from 'node:stream';
import { type RawData, type WebSocket, WebSocketServer } from 'ws';
import { parseJson } from './decode.js';
import type { Identity } from './identity.js';
import { isRecord } from './outcome.js';
import type { DisconnectReason, EnvelopeAck, EnvelopeType, FakeSocketMode, Json } from './types.js';

/** How long an envelope may wait for its ack before `send` rejects (Slack's own budget is 3 s). */
const DEFAULT_ACK_TIMEOUT_MS = 3000;
/** After a disconnect message (other than a warning) Slack closes the socket itself soon after. */
const FORCED_CLOSE_AFTER_MS = 1000;
/** On close, how long the fake waits for a client to answer its close frame. */
const CLOSE_GRACE_MS = 500;

interface Connection {
  id: number;
  socket: WebSocket;
  draining: boolean;
  forcedClose?: NodeJS.Timeout;
}

interface PendingEnvelope {
  connection: Connection;
  sentAt: number;
  resolve: (ack: EnvelopeAck) => void;
  reject: (error: Error) => void;
  timer: NodeJS.Timeout;
}

/**
 * Slack's Socket Mode endpoint as @slack/socket-mode 3 expects it: a single-use ticket in the URL
 * from apps.connections.open, a `hello` on connect, envelopes in, acks (`{envelope_id, payload}`)
 * back, `disconnect` messages, and server pings.
 */
export class SocketModeServer implements FakeSocketMode {
  private readonly wss = new WebSocketServer({ noServer: true });
  private readonly tickets = new Set<string>();
  private readonly open = new Set<Connection>();
  private readonly pending = new Map<string, PendingEnvelope>();
  private readonly connectionWaiters = new Set<{ connected: () => void; closed: () => void }>();
  private readonly pingTimer: NodeJS.Timeout;
  private connectionCounter = 0;
  private roundRobin = 0;

  constructor(
    private readonly ids: Identity,
    private readonly wsOrigin: () => string,
    pingIntervalMs: number,
  ) {
    this.pingTimer = setInterval(() => {
      for (const connection of this.open) connection.socket.ping();
    }, pingIntervalMs);
    this.pingTimer.unref();
  }

  issueUrl(): string {
    const ticket = randomUUID();
    this.tickets.add(ticket);
    return `${this.wsOrigin()}/link/?ticket=${ticket}&app_id=${this.ids.appId}`;
  }

  handleUpgrade(request: IncomingMessage, socket: Duplex, head: Buffer): void {
    const url = new URL(request.url ?? '/', 'http://fake-slack');
    const ticket = url.searchParams.get('ticket') ?? '';
    if (!url.pathname.startsWith('/link') || !this.tickets.delete(ticket)) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nConnection: close\r\nContent-Length: 0\r\n\r\n');
      return;
    }
    this.wss.handleUpgrade(request, socket, head, (ws) => this.accept(ws));
  }

  connections(): number {
    return [...this.open].filter((c) => !c.draining).length;
  }

  waitForConnection(timeoutMs = 2000): Promise<void> {
    if (this.connections() > 0) return Promise.resolve();
    return new Promise((resolve, reject) => {
      const finish = (error?: Error) => {
        clearTimeout(timer);
        this.connectionWaiters.delete(waiter);
        if (error === undefined) resolve();
        else reject(error);
      };
      const waiter = { connected: () => finish(), closed: () => finish(new Error('the fake Slack closed')) };
      const timer = setTimeout(
        () => finish(new Error(`no Socket Mode connection within ${timeoutMs} ms`)),
        timeoutMs,
      );
      this.connectionWaiters.add(waiter);
    });
  }

  send(type: EnvelopeType, payload: object, options: { timeoutMs?: number } = {}): Promise<EnvelopeAck> {
    const active = [...this.open].filter((c) => !c.draining);
    const connection = active[this.roundRobin % Math.max(active.length, 1)];
    if (connection === undefined) return Promise.reject(new Error('no Socket Mode connection is open'));
    this.roundRobin += 1;
    const envelopeId = randomUUID();
    const envelope: Json = {
      envelope_id: envelopeId,
      type,
      payload,
      accepts_response_payload: acceptsResponsePayload(type, payload),
    };
    if (type === 'events_api') Object.assign(envelope, { retry_attempt: 0, retry_reason: '' });
    const timeoutMs = options.timeoutMs ?? DEFAULT_ACK_TIMEOUT_MS;
    return new Promise<EnvelopeAck>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(envelopeId);
        reject(new Error(`envelope ${envelopeId} (${type}) was not acknowledged within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pending.set(envelopeId, { connection, sentAt: Date.now(), resolve, reject, timer });
      connection.socket.send(JSON.stringify(envelope));
    });
  }

  disconnectAll(reason: DisconnectReason = 'refresh_requested'): void {
    for (const connection of this.open) {
      if (connection.draining) continue;
      connection.draining = true;
      connection.socket.send(
        JSON.stringify({ type: 'disconnect', reason, debug_info: { host: `applink-fake-${connection.id}` } }),
      );
      if (reason !== 'warning') {
        connection.forcedClose = setTimeout(() => connection.socket.close(1000), FORCED_CLOSE_AFTER_MS);
        connection.forcedClose.unref();
      }
    }
  }

  /** Closes every connection the way a server going away does: a close frame, then the socket. */
  async close(): Promise<void> {
    clearInterval(this.pingTimer);
    for (const [envelopeId, pending] of this.pending) {
      this.settle(envelopeId, pending, new Error('the fake Slack closed'));
    }
    for (const waiter of [...this.connectionWaiters]) waiter.closed();
    this.tickets.clear();
    await Promise.all([...this.open].map((connection) => closeGracefully(connection)));
    this.open.clear();
    this.wss.close();
  }

  private accept(socket: WebSocket): void {
    this.connectionCounter += 1;
    const connection: Connection = { id: this.connectionCounter, socket, draining: false };
    this.open.add(connection);
    socket.on('message', (data, isBinary) => this.onMessage(data, isBinary));
    socket.on('close', () => this.onClose(connection));
    // A client that vanishes mid-frame shows up here; the 'close' that follows does the cleanup.
    socket.on('error', () => socket.terminate());
    socket.send(
      JSON.stringify({
        type: 'hello',
        num_connections: this.connections(),
        debug_info: {
          host: `applink-fake-${connection.id}`,
          build_number: 1,
          approximate_connection_time: 18060,
        },
        connection_info: { app_id: this.ids.appId },
      }),
    );
    for (const waiter of [...this.connectionWaiters]) waiter.connected();
  }

  private onMessage(data: RawData, isBinary: boolean): void {
    if (isBinary) return;
    const message = parseJson(data.toString());
    if (!isRecord(message) || typeof message.envelope_id !== 'string') return;
    const pending = this.pending.get(message.envelope_id);
    if (pending === undefined) return;
    clearTimeout(pending.timer);
    this.pending.delete(message.envelope_id);
    const ack: EnvelopeAck = { envelopeId: message.envelope_id, sentAt: pending.sentAt, ackedAt: Date.now() };
    if (message.payload !== undefined) ack.payload = message.payload;
    pending.resolve(ack);
  }

  private onClose(connection: Connection): void {
    clearTimeout(connection.forcedClose);
    this.open.delete(connection);
    for (const [envelopeId, pending] of this.pending) {
      if (pending.connection === connection) {
        this.settle(
          envelopeId,
          pending,
          new Error('the connection closed before the envelope was acknowledged'),
        );
      }
    }
  }

  private settle(envelopeId: string, pending: PendingEnvelope, error: Error): void {
    clearTimeout(pending.timer);
    this.pending.delete(envelopeId);
    pending.reject(error);
  }
}

/**
 * Waits briefly for the client's half of the close handshake before cutting the socket: a
 * SocketModeClient whose socket is cut mid-handshake keeps a 30 s timer alive.
 */
function closeGracefully(connection: Connection): Promise<void> {
  clearTimeout(connection.forcedClose);
  const { socket } = connection;
  if (socket.readyState === socket.CLOSED) return Promise.resolve();
  return new Promise((resolve) => {
    const cut = setTimeout(() => socket.terminate(), CLOSE_GRACE_MS);
    socket.once('close', () => {
      clearTimeout(cut);
      resolve();
    });
    socket.close(1001, 'going away');
  });
}

/** Slack lets the ack carry a response for commands, view submissions and option loads only. */
function acceptsResponsePayload(type: EnvelopeType, payload: object): boolean {
  if (type === 'slash_commands') return true;
  if (type !== 'interactive') return false;
  const interactionType: unknown = Reflect.get(payload, 'type');
  return interactionType === 'view_submission' || interactionType === 'block_suggestion';
}
