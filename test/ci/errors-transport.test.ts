import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, afterEach, before, describe, it } from 'node:test';
import { streamJobLog } from '../../src/ci/logs.js';
import { getRepo } from '../../src/ci/repos.js';
import {
  clientFor,
  closedPort,
  LATE_MS,
  only,
  RAILS_ID,
  RKH_TOKEN,
  rejectsWith,
  type Setup,
  SHORT_TIMEOUT_MS,
  setUp,
} from './helpers.js';

const REPO_PATH = '/repos/rails/rails';

describe('CI client: unavailable and rate_limited (no retries)', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp({ client: { maxRetries: 0 } });
  });
  afterEach(() => {
    ci.fake.clearFaults();
    ci.take();
  });
  after(() => ci.close());

  it('a 5xx answer is unavailable (server_error) with its status and message', async () => {
    ci.fake.fault({ path: REPO_PATH }, { status: 503, body: 'Service Unavailable', times: 1 });
    const error = await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'unavailable');
    assert.equal(error.data.reason, 'server_error');
    assert.equal(error.data.status, 503);
    assert.equal(error.data.serviceMessage, 'Service Unavailable');
    assert.equal(error.transient, true);
  });

  it('a dropped connection is unavailable (reset)', async () => {
    ci.fake.fault({ path: REPO_PATH }, { drop: true, times: 1 });
    const error = await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'unavailable');
    assert.equal(error.data.reason, 'reset');
    assert.equal(error.data.status, undefined);
  });

  it('an answer later than requestTimeoutMs is unavailable (timeout)', async (t) => {
    const { client } = clientFor(ci.fake.url, { maxRetries: 0, requestTimeoutMs: SHORT_TIMEOUT_MS });
    t.after(() => client.close());
    ci.fake.fault({ path: REPO_PATH }, { delayMs: LATE_MS, times: 1 });
    const started = performance.now();
    const error = await rejectsWith(getRepo(client.session('com', RKH_TOKEN), 'rails/rails'), 'unavailable');
    assert.equal(error.data.reason, 'timeout');
    assert.ok(performance.now() - started < LATE_MS, 'gave up at the timeout, not when the answer came');
  });

  it('429 is rate_limited with retryAfterMs from Retry-After (seconds)', async () => {
    ci.fake.fault({ path: REPO_PATH }, { status: 429, headers: { 'retry-after': '7' }, times: 1 });
    const error = await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'rate_limited');
    assert.equal(error.data.status, 429);
    assert.equal(error.data.retryAfterMs, 7_000);
    assert.equal(error.transient, true);
    only(ci.take());
  });

  it('429 with Retry-After as an HTTP date', async () => {
    const at = new Date(Date.now() + 30_000).toUTCString();
    ci.fake.fault({ path: REPO_PATH }, { status: 429, headers: { 'retry-after': at }, times: 1 });
    const error = await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'rate_limited');
    assert.ok(error.data.retryAfterMs !== undefined && error.data.retryAfterMs > 25_000);
    assert.ok(error.data.retryAfterMs <= 30_000);
  });
});

describe('CI client: connections that fail', () => {
  it('a closed port is unavailable (refused)', async (t) => {
    const { client } = clientFor(`http://127.0.0.1:${await closedPort()}`, { maxRetries: 0 });
    t.after(() => client.close());
    const error = await rejectsWith(getRepo(client.session('com'), RAILS_ID), 'unavailable');
    assert.equal(error.data.reason, 'refused');
    assert.equal(error.data.deployment, 'com');
  });

  /** A server that sends the headers and half a body, then stalls or hangs up. */
  let server: Server;
  let ending: 'stall' | 'hang up' = 'stall';
  let url = '';
  before(async () => {
    server = createServer((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"repo": {"id": 891, ');
      if (ending === 'hang up') setTimeout(() => req.socket.destroy(), 10);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  it('a body that stops coming is unavailable (timeout), retried like any timeout', async (t) => {
    ending = 'stall';
    const { client, sleeps } = clientFor(url, {
      maxRetries: 1,
      requestTimeoutMs: SHORT_TIMEOUT_MS,
      random: () => 1,
    });
    t.after(() => client.close());
    const error = await rejectsWith(getRepo(client.session('com'), RAILS_ID), 'unavailable');
    assert.equal(error.data.reason, 'timeout');
    assert.deepEqual(sleeps, [250]);
  });

  it('a body cut off by a hang-up is unavailable (reset), retried', async (t) => {
    ending = 'hang up';
    const { client, sleeps } = clientFor(url, { maxRetries: 1, random: () => 1 });
    t.after(() => client.close());
    const error = await rejectsWith(getRepo(client.session('com'), RAILS_ID), 'unavailable');
    assert.equal(error.data.reason, 'reset');
    assert.deepEqual(sleeps, [250]);
  });

  it('a streamed body cut off is an unavailable CiError from the stream', async (t) => {
    ending = 'hang up';
    const { client } = clientFor(url, { maxRetries: 0 });
    t.after(() => client.close());
    const stream = await streamJobLog(client.session('com'), 1);
    const read = async () => {
      for await (const _chunk of stream);
    };
    const error = await rejectsWith(read(), 'unavailable');
    assert.equal(error.data.reason, 'reset');
  });
});
