import assert from 'node:assert/strict';
import { once } from 'node:events';
import { after, before, describe, it } from 'node:test';
import PusherModule from 'pusher-js';
import { WebSocket } from 'ws';
import { channelAuth, type FakePusher, startFakePusher } from './pusher-server.js';

interface Frame {
  event: string;
  channel?: string;
  data: unknown;
}

/** A bare protocol client: every frame from the server is queued until a test asks for it. */
class RawClient {
  readonly frames: Frame[] = [];
  readonly ws: WebSocket;
  #waiters: Array<() => void> = [];

  constructor(url: string) {
    this.ws = new WebSocket(url);
    this.ws.on('message', (raw) => {
      this.frames.push(JSON.parse(raw.toString()) as Frame);
      for (const wake of this.#waiters.splice(0)) wake();
    });
    this.ws.on('error', () => {});
  }

  /** The first queued frame for `event` (removed from the queue), waiting up to five seconds. */
  async next(event: string): Promise<Frame> {
    const deadline = Date.now() + 5000;
    for (;;) {
      const index = this.frames.findIndex((f) => f.event === event);
      if (index >= 0) return this.frames.splice(index, 1)[0] as Frame;
      const left = deadline - Date.now();
      if (left <= 0) throw new Error(`no ${event} frame; got ${JSON.stringify(this.frames)}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, left);
        this.#waiters.push(() => {
          clearTimeout(timer);
          resolve();
        });
      });
    }
  }

  send(event: string, data: unknown): void {
    this.ws.send(JSON.stringify({ event, data }));
  }

  async socketId(): Promise<string> {
    const established = await this.next('pusher:connection_established');
    assert.equal(typeof established.data, 'string', 'connection_established data is a JSON string');
    const data = JSON.parse(established.data as string) as { socket_id: string; activity_timeout: number };
    return data.socket_id;
  }

  async closed(): Promise<number> {
    if (this.ws.readyState === WebSocket.CLOSED) throw new Error('already closed');
    const [code] = (await once(this.ws, 'close')) as [number];
    return code;
  }

  close(): void {
    this.ws.terminate();
  }
}

/** The HTTP status an upgrade request to `url` is answered with (when it is not upgraded). */
async function upgradeRefusal(url: string): Promise<number> {
  const ws = new WebSocket(url);
  ws.on('error', () => {});
  const [, response] = (await once(ws, 'unexpected-response')) as [unknown, { statusCode: number }];
  ws.terminate();
  return response.statusCode;
}

function urlOf(fake: FakePusher, key = fake.key, query = '?protocol=7&client=js&version=8.6.0'): string {
  return `ws://${fake.host}:${fake.port}${fake.path}/app/${key}${query}`;
}

describe('fake Pusher server, raw protocol', () => {
  let fake: FakePusher;
  const clients: RawClient[] = [];
  const connect = (url = urlOf(fake)) => {
    const client = new RawClient(url);
    clients.push(client);
    return client;
  };

  before(async () => {
    fake = await startFakePusher({ path: '/pusher/' });
  });
  after(async () => {
    for (const c of clients) c.close();
    await fake.close();
  });

  it('greets with connection_established whose data is a JSON string', async () => {
    const client = connect();
    const established = await client.next('pusher:connection_established');
    const data = JSON.parse(established.data as string) as Record<string, unknown>;
    assert.match(String(data.socket_id), /^\d+\.\d+$/);
    assert.equal(data.activity_timeout, 120);
    await fake.waitFor(() => fake.connections() >= 1, 'a connection');
  });

  it('refuses an unknown app key with pusher:error 4001 and close code 4001', async () => {
    const client = connect(urlOf(fake, 'wrong-key'));
    const error = await client.next('pusher:error');
    assert.equal((error.data as { code: number }).code, 4001);
    assert.equal(await client.closed(), 4001);
  });

  it('refuses protocol versions other than 7 with 4007', async () => {
    const client = connect(urlOf(fake, fake.key, '?protocol=5'));
    assert.equal(await client.closed(), 4007);
  });

  it('serves only under the configured path', async () => {
    assert.equal(await upgradeRefusal(`ws://${fake.host}:${fake.port}/app/${fake.key}?protocol=7`), 404);
    assert.equal(await upgradeRefusal(`ws://${fake.host}:${fake.port}/pusher/app/?protocol=7`), 404);
  });

  it('answers pings and records what clients send', async () => {
    const client = connect();
    const socketId = await client.socketId();
    client.send('pusher:ping', {});
    const pong = await client.next('pusher:pong');
    assert.equal(pong.data, '{}');
    assert.ok(
      fake.received.some(
        (r) => r.socketId === socketId && (r.message as Frame | undefined)?.event === 'pusher:ping',
      ),
    );
  });

  it('subscribes to a public channel, triggers with JSON-string data, and unsubscribes', async () => {
    const client = connect();
    await client.socketId();
    client.send('pusher:subscribe', { channel: 'repo-1' });
    const ok = await client.next('pusher_internal:subscription_succeeded');
    assert.equal(ok.channel, 'repo-1');
    assert.equal(fake.subscriptions().get('repo-1'), 1);

    assert.equal(fake.trigger('repo-1', 'build:started', { id: 7 }), 1);
    const event = await client.next('build:started');
    assert.equal(event.channel, 'repo-1');
    assert.equal(event.data, '{"id":7}');
    assert.equal(fake.trigger('repo-2', 'build:started', {}), 0);

    client.send('pusher:unsubscribe', JSON.stringify({ channel: 'repo-1' }));
    await fake.waitFor(() => !fake.subscriptions().has('repo-1'), 'the unsubscription');
    assert.equal(fake.trigger('repo-1', 'build:started', {}), 0);
  });

  it('checks private channel auth: missing or wrong fails, the right signature subscribes', async () => {
    const client = connect();
    const socketId = await client.socketId();

    client.send('pusher:subscribe', { channel: 'private-job-1' });
    const missing = await client.next('pusher:subscription_error');
    assert.equal(missing.channel, 'private-job-1');
    assert.equal(JSON.parse(missing.data as string).status, 401);

    const otherSocket = channelAuth(fake.key, fake.secret, '1.2', 'private-job-1');
    client.send('pusher:subscribe', { channel: 'private-job-1', auth: otherSocket });
    await client.next('pusher:subscription_error');
    assert.equal(fake.subscriptions().has('private-job-1'), false);

    const auth = channelAuth(fake.key, fake.secret, socketId, 'private-job-1');
    client.send('pusher:subscribe', { channel: 'private-job-1', auth });
    const ok = await client.next('pusher_internal:subscription_succeeded');
    assert.equal(ok.channel, 'private-job-1');
    assert.equal(fake.subscriptions().get('private-job-1'), 1);
  });

  it('rejects client events and frames that are not JSON', async () => {
    const client = connect();
    const socketId = await client.socketId();
    client.send('client-typing', {});
    await client.next('pusher:error');
    client.ws.send('not json');
    await client.next('pusher:error');
    assert.ok(fake.received.some((r) => r.socketId === socketId && r.message === 'not json'));
  });

  it('dropAll closes with the given code, or abruptly without one', async () => {
    const first = connect();
    await first.socketId();
    fake.dropAll(4200);
    assert.equal(await first.closed(), 4200);
    assert.equal(fake.connections(), 0);

    const second = connect();
    await second.socketId();
    fake.dropAll();
    assert.equal(await second.closed(), 1006);
  });

  it('refuses connections with 503 while told to, then accepts again', async () => {
    fake.refuseConnections(true);
    const before = fake.refusedCount();
    assert.equal(await upgradeRefusal(urlOf(fake)), 503);
    assert.equal(fake.refusedCount(), before + 1);
    fake.refuseConnections(false);
    const client = connect();
    await client.socketId();
  });
});

describe('fake Pusher server, keep-alive', () => {
  it('pings a quiet socket after the activity timeout and closes with 4201 without an answer', async (t) => {
    const fake = await startFakePusher({ activityTimeoutSec: 0.05, pongTimeoutSec: 0.05 });
    const client = new RawClient(urlOf(fake));
    t.after(async () => {
      client.close();
      await fake.close();
    });
    const established = await client.next('pusher:connection_established');
    assert.equal(JSON.parse(established.data as string).activity_timeout, 0.05);
    await client.next('pusher:ping');
    assert.equal(await client.closed(), 4201);
  });

  it('keeps a socket that answers the ping', async (t) => {
    const fake = await startFakePusher({ activityTimeoutSec: 0.05, pongTimeoutSec: 0.05 });
    const client = new RawClient(urlOf(fake));
    t.after(async () => {
      client.close();
      await fake.close();
    });
    await client.socketId();
    await client.next('pusher:ping');
    client.send('pusher:pong', {});
    await client.next('pusher:ping');
    client.send('pusher:pong', {});
    assert.equal(client.ws.readyState, WebSocket.OPEN);
  });
});

describe('fake Pusher server with pusher-js', () => {
  it('connects through a path prefix, authorises a private channel and delivers parsed data', async (t) => {
    const fake = await startFakePusher({ path: '/relay' });
    const Pusher = PusherModule as unknown as typeof PusherModule.default;
    const authorised: string[] = [];
    const pusher = new Pusher(fake.key, {
      cluster: 'mt1',
      wsHost: fake.host,
      wsPort: fake.port,
      wsPath: fake.path,
      forceTLS: false,
      enabledTransports: ['ws'],
      channelAuthorization: {
        customHandler: ({ socketId, channelName }, callback) => {
          authorised.push(channelName);
          callback(null, { auth: channelAuth(fake.key, fake.secret, socketId, channelName) });
        },
      },
    });
    t.after(async () => {
      pusher.disconnect();
      await fake.close();
    });
    const events: unknown[] = [];
    let bothArrived: () => void = () => {};
    const arrived = new Promise<void>((resolve) => {
      bothArrived = resolve;
    });
    const collect = (data: unknown) => {
      events.push(data);
      if (events.length === 2) bothArrived();
    };
    pusher.subscribe('private-job-9').bind('job:log', collect);
    pusher.subscribe('repo-3').bind('build:finished', collect);
    await fake.waitForSubscription('private-job-9');
    await fake.waitForSubscription('repo-3');
    assert.deepEqual(authorised, ['private-job-9']);

    fake.trigger('private-job-9', 'job:log', { id: 9, _log: 'hello', number: 1 });
    fake.trigger('repo-3', 'build:finished', { build: { id: 3 } });
    await arrived;
    assert.deepEqual(events, [{ id: 9, _log: 'hello', number: 1 }, { build: { id: 3 } }]);
  });
});
