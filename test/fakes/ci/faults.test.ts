import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { type FakeCi, startFakeCi } from './index.js';
import { call } from './test-helpers.js';

describe('fake CI: injected faults', () => {
  let ci: FakeCi;
  before(async () => {
    ci = await startFakeCi();
  });
  afterEach(() => ci.clearFaults());
  after(() => ci.close());

  it('answers a status the given number of times, then normally', async () => {
    ci.fault({ path: '/repos/rails/rails' }, { status: 503, body: 'down', times: 2 });
    assert.deepEqual(
      [(await call(ci.url, '/repos/rails/rails')).status, (await call(ci.url, '/repos/rails/rails')).status],
      [503, 503],
    );
    assert.equal((await call(ci.url, '/repos/rails/rails')).status, 200);
  });

  it('sends the fault headers (429 with Retry-After), before any header check', async () => {
    ci.fault({ method: 'GET', path: /^\/builds/ }, { status: 429, headers: { 'retry-after': '3' } });
    const response = await call(ci.url, '/builds/4125095', { accept: null });
    assert.equal(response.status, 429);
    assert.equal(response.headers['retry-after'], '3');
    assert.equal(
      (await call(ci.url, '/builds/4125095/cancel', { method: 'POST', token: 'token-rkh' })).status,
      422,
    );
  });

  it('keeps a fault until cleared when no times are given', async () => {
    ci.fault({ path: '/config' }, { status: 500 });
    for (let i = 0; i < 3; i += 1) assert.equal((await call(ci.url, '/config')).status, 500);
    ci.clearFaults();
    assert.equal((await call(ci.url, '/config')).status, 200);
  });

  it('answers late', async () => {
    ci.fault({ path: '/config' }, { delayMs: 150, times: 1 });
    const started = Date.now();
    const response = await call(ci.url, '/config');
    assert.equal(response.status, 200);
    assert.ok(Date.now() - started >= 140);
  });

  it('answers 200 with broken JSON', async () => {
    ci.fault({ path: '/config' }, { malformed: true, times: 1 });
    const response = await call(ci.url, '/config');
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /json/);
    assert.throws(() => JSON.parse(response.text), SyntaxError);
  });

  it('drops the connection without answering', async () => {
    ci.fault({ path: '/config' }, { drop: true, times: 1 });
    await assert.rejects(call(ci.url, '/config'), (error: Error & { code?: string }) => {
      assert.match(String(error.code), /UND_ERR_SOCKET|ECONNRESET/);
      return true;
    });
    assert.equal((await call(ci.url, '/config')).status, 200);
  });
});
