import assert from 'node:assert/strict';
import { type ChildProcess, spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import { createServer, type Server, type Socket } from 'node:net';
import { describe, it } from 'node:test';
import { startFakePusher } from '../fakes/pusher-server.js';
import { withTimeout } from './helpers.js';

/**
 * `close()` must never keep the process alive: a child process connects, is told to close, and has
 * to exit on its own within a short time — also when the server has stopped answering.
 */

const FIXTURE = new URL('./fixtures/connect-then-close.ts', import.meta.url).pathname;
/** Typically tens of ms (about a second with a silent server); pusher-js's own socket needs 30 s there. */
const EXIT_WITHIN_MS = 5_000;

function startChild(key: string, port: number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, PUSHER_KEY: key, PUSHER_PORT: String(port) },
  });
}

/** Tells the child to close and measures how long it takes to exit. */
async function closeAndTimeExit(child: ChildProcess): Promise<{ code: number | null; ms: number }> {
  const exited = once(child, 'exit') as Promise<[number | null]>;
  const started = Date.now();
  child.send('close');
  const timeout = setTimeout(() => child.kill(), 10_000);
  const [code] = await exited;
  clearTimeout(timeout);
  return { code, ms: Date.now() - started };
}

/**
 * Completes the WebSocket and Pusher handshakes, then never reads or answers again: a peer lost
 * to a network partition. The client's close frame goes unanswered.
 */
async function startSilentServer(): Promise<{ server: Server; port: number; connected: Promise<void> }> {
  const sockets = new Set<Socket>();
  let markConnected: () => void = () => {};
  const connected = new Promise<void>((resolve) => {
    markConnected = resolve;
  });
  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on('error', () => {});
    socket.once('data', (request) => {
      const key = /sec-websocket-key:\s*(\S+)/i.exec(request.toString())?.[1] ?? '';
      const accept = createHash('sha1').update(`${key}258EAFA5-E914-47DA-95CA-C5AB0DC85B11`).digest('base64');
      socket.write(
        `HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: ${accept}\r\n\r\n`,
      );
      const established = Buffer.from(
        JSON.stringify({
          event: 'pusher:connection_established',
          data: JSON.stringify({ socket_id: '1.1', activity_timeout: 120 }),
        }),
      );
      assert.ok(established.length < 126, 'one-byte length frame');
      socket.write(Buffer.concat([Buffer.from([0x81, established.length]), established]));
      socket.pause();
      markConnected();
    });
  });
  server.on('close', () => {
    for (const socket of sockets) socket.destroy();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, port: (server.address() as AddressInfo).port, connected };
}

describe('RealtimeConnection.close() lets the process exit', () => {
  it('with a server that answers', async (t) => {
    const fake = await startFakePusher();
    t.after(() => fake.close());
    const child = startChild(fake.key, fake.port);
    t.after(() => child.kill());
    // Generous: starting a child process through tsx is slow on a busy machine.
    await fake.waitForSubscription('repo-1', 15_000);

    const { code, ms } = await closeAndTimeExit(child);
    assert.equal(code, 0);
    assert.ok(ms < EXIT_WITHIN_MS, `exited ${ms} ms after close()`);
  });

  it('with a server that has stopped answering', async (t) => {
    const silent = await startSilentServer();
    t.after(() => {
      silent.server.close();
    });
    const child = startChild('any-key', silent.port);
    t.after(() => child.kill());
    await withTimeout(silent.connected, 15_000, 'the child to connect');

    const { code, ms } = await closeAndTimeExit(child);
    assert.equal(code, 0);
    assert.ok(ms < EXIT_WITHIN_MS, `exited ${ms} ms after close()`);
  });
});
