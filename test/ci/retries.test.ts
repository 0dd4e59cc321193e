import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { deleteCaches } from '../../src/ci/caches.js';
import type { AttemptInfo } from '../../src/ci/client.js';
import { getRepo, setHook } from '../../src/ci/repos.js';
import {
  clientFor,
  LATE_MS,
  lines,
  RAILS_ID,
  rejectsWith,
  type Setup,
  SHORT_TIMEOUT_MS,
  setUp,
} from './helpers.js';

const PATH = '/repos/rails/rails';

describe('CI client: retries of idempotent requests', () => {
  let ci: Setup;
  let randoms: number[] = [];
  const attempts: AttemptInfo[] = [];
  before(async () => {
    ci = await setUp({
      client: {
        maxRetries: 4,
        backoff: { baseMs: 100, maxMs: 300 },
        maxRetryAfterMs: 5_000,
        random: () => randoms.shift() ?? 0.5,
        onAttempt: (info) => attempts.push(info),
      },
    });
  });
  afterEach(() => {
    ci.fake.clearFaults();
    ci.take();
    ci.sleeps.length = 0;
    attempts.length = 0;
    randoms = [];
  });
  after(() => ci.close());

  it('retries a GET on 5xx and succeeds once the service recovers', async () => {
    ci.fake.fault({ path: PATH }, { status: 503, times: 2 });
    randoms = [1, 1];
    assert.equal((await getRepo(ci.as(), 'rails/rails')).id, RAILS_ID);
    assert.deepEqual(lines(ci.take()), [`GET ${PATH}`, `GET ${PATH}`, `GET ${PATH}`]);
    assert.deepEqual(ci.sleeps, [100, 200]);
    assert.deepEqual(
      attempts.map((a) => [a.attempt, a.status, a.errorCode]),
      [
        [0, 503, 'unavailable'],
        [1, 503, 'unavailable'],
        [2, 200, undefined],
      ],
    );
    assert.equal(attempts[0]?.route, '/repos/rails/rails');
  });

  it('waits exponentially longer, with jitter between half and all of the step, capped at maxMs', async () => {
    ci.fake.fault({ path: PATH }, { status: 500 });
    randoms = [0, 0.5, 1, 0];
    const error = await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'unavailable');
    assert.equal(error.data.status, 500);
    // steps 100, 200, 400→300, 800→300; jitter factor 0.5 + random/2
    assert.deepEqual(ci.sleeps, [50, 150, 300, 150]);
    assert.equal(ci.take().length, 5, 'the first try and maxRetries (4) retries');
  });

  it('retries on a dropped connection and on a 429', async () => {
    ci.fake.fault({ path: PATH }, { drop: true, times: 1 });
    await getRepo(ci.as(), 'rails/rails');
    ci.fake.fault({ path: PATH }, { status: 429, times: 1 });
    await getRepo(ci.as(), 'rails/rails');
    assert.equal(ci.take().length, 4);
    assert.deepEqual(
      attempts.filter((a) => a.errorCode !== undefined).map((a) => a.errorCode),
      ['unavailable', 'rate_limited'],
    );
    assert.equal(ci.sleeps.length, 2);
  });

  it('retries after a timeout', async (t) => {
    const short = clientFor(ci.fake.url, { requestTimeoutMs: SHORT_TIMEOUT_MS, random: () => 0 });
    t.after(() => short.client.close());
    ci.fake.fault({ path: PATH }, { delayMs: LATE_MS, times: 1 });
    assert.equal((await getRepo(short.client.session('com'), 'rails/rails')).id, RAILS_ID);
    assert.equal(ci.take().length, 2);
    assert.deepEqual(short.sleeps, [125], 'half of the default first step (250 ms)');
  });

  it('waits what Retry-After asks instead of the backoff, on 429 and on 503', async () => {
    ci.fake.fault({ path: PATH }, { status: 429, headers: { 'retry-after': '2' }, times: 1 });
    await getRepo(ci.as(), 'rails/rails');
    ci.fake.fault({ path: PATH }, { status: 503, headers: { 'retry-after': '1.5' }, times: 1 });
    await getRepo(ci.as(), 'rails/rails');
    assert.deepEqual(ci.sleeps, [2_000, 1_500]);
  });

  it('does not wait for a Retry-After beyond maxRetryAfterMs: rate_limited at once', async () => {
    ci.fake.fault({ path: PATH }, { status: 429, headers: { 'retry-after': '60' }, times: 1 });
    const error = await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'rate_limited');
    assert.equal(error.data.retryAfterMs, 60_000);
    assert.deepEqual(ci.sleeps, []);
    assert.equal(ci.take().length, 1);
  });

  it('does not retry what cannot succeed later (404, invalid JSON)', async () => {
    await rejectsWith(getRepo(ci.as(), 'rails/nothing'), 'not_found');
    ci.fake.fault({ path: PATH }, { malformed: true, times: 1 });
    await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'invalid_response');
    assert.equal(ci.take().length, 2);
    assert.deepEqual(ci.sleeps, []);
  });

  it('retries PUT and DELETE, which are idempotent', async () => {
    ci.fake.fault({ method: 'PUT', path: '/hooks' }, { status: 502, times: 1 });
    await setHook(ci.as(), RAILS_ID, true);
    ci.fake.fault({ method: 'DELETE', path: `/repos/${RAILS_ID}/caches` }, { drop: true, times: 1 });
    assert.equal((await deleteCaches(ci.as(), RAILS_ID, { branch: 'master' })).length, 2);
    assert.deepEqual(lines(ci.take()), [
      'PUT /hooks',
      'PUT /hooks',
      `DELETE /repos/${RAILS_ID}/caches?branch=master`,
      `DELETE /repos/${RAILS_ID}/caches?branch=master`,
    ]);
  });
});

describe('CI client: maxRetries 0', () => {
  it('sends once', async (t) => {
    const ci = await setUp({ client: { maxRetries: 0 } });
    t.after(() => ci.close());
    ci.fake.fault({ path: PATH }, { status: 503, times: 1 });
    await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'unavailable');
    assert.equal(ci.take().length, 1);
    assert.deepEqual(ci.sleeps, []);
  });
});
