import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type FakeCi, startFakeCi } from './index.js';
import { call, field, MEDIA_TYPE } from './test-helpers.js';

describe('fake CI: request headers', () => {
  let ci: FakeCi;
  before(async () => {
    ci = await startFakeCi();
  });
  after(() => ci.close());

  it('answers V2.1 routes with the configured media type, chunked or not', async () => {
    assert.equal((await call(ci.url, '/repos/rails/rails')).status, 200);
    assert.equal(
      (await call(ci.url, '/repos/rails/rails', { accept: `${MEDIA_TYPE}; chunked=true` })).status,
      200,
    );
    assert.equal(
      (await call(ci.url, '/repos/rails/rails', { accept: `text/html, ${MEDIA_TYPE}` })).status,
      200,
    );
  });

  it('answers 406 with a JSON error naming the media type for anything else', async () => {
    for (const accept of [
      null,
      'application/json',
      'application/vnd.travis-ci.2+json',
      '*/*',
      'text/plain',
    ]) {
      const response = await call(ci.url, '/repos/rails/rails', { accept });
      assert.equal(response.status, 406, `Accept ${accept}`);
      assert.equal(field(response.json, 'error_type'), 'not_acceptable');
      assert.match(String(field(response.json, 'error_message')), /application\/vnd\.travis-ci\.2\.1\+json/);
    }
  });

  it('takes text/plain on the plain-text log routes', async () => {
    const response = await call(ci.url, '/jobs/4125096/log', { accept: 'text/plain' });
    assert.equal(response.status, 200);
    assert.match(String(response.headers['content-type']), /^text\/plain/);
    assert.equal(response.text, '$ export GEM=railties\n');
  });

  it('needs a User-Agent of the form name/version', async () => {
    for (const userAgent of [null, 'undici', 'curl', '/1.0']) {
      const response = await call(ci.url, '/repos/rails/rails', { userAgent });
      assert.equal(response.status, 400, `User-Agent ${userAgent}`);
      assert.equal(field(response.json, 'error_type'), 'user_agent_required');
    }
    assert.equal(
      (await call(ci.url, '/', { userAgent: 'Travis/1.8.8 (Mac OS X 10.9.2) Ruby/2.1.1' })).status,
      200,
    );
  });

  it('answers 401 to an unknown or malformed token, even on public data', async () => {
    assert.equal((await call(ci.url, '/repos/rails/rails', { token: 'nope' })).status, 401);
    const bearer = await call(ci.url, '/repos/rails/rails', {
      headers: { authorization: 'Bearer token-rkh' },
    });
    assert.equal(bearer.status, 401);
    assert.equal((await call(ci.url, '/repos/rails/rails', { token: 'token-rkh' })).status, 200);
  });

  it('answers 404 with a JSON error for unknown routes, and serves HEAD like GET', async () => {
    const missing = await call(ci.url, '/nothing/here');
    assert.equal(missing.status, 404);
    assert.equal(field(missing.json, 'error_type'), 'not_found');
    const head = await call(ci.url, '/repos/rails/rails', { method: 'HEAD' });
    assert.equal(head.status, 200);
    assert.equal(head.text, '');
  });

  it('answers CORS preflights and JSONP', async () => {
    const preflight = await call(ci.url, '/repos/rails/rails', {
      method: 'OPTIONS',
      accept: null,
      userAgent: null,
    });
    assert.equal(preflight.status, 204);
    assert.match(String(preflight.headers['access-control-allow-methods']), /PATCH/);
    assert.match(String(preflight.headers['access-control-allow-headers']), /Authorization/);
    const jsonp = await call(ci.url, '/repos/rails/rails?callback=show');
    assert.match(jsonp.text, /^\/\*\*\/show\(\{"repo":/);
  });

  it('records every request in order', async () => {
    const before = ci.requests.length;
    await call(ci.url, '/lint', { method: 'PUT', body: 'language: ruby\n', contentType: 'text/yaml' });
    const recorded = ci.requests[before];
    assert.equal(recorded?.method, 'PUT');
    assert.equal(recorded?.path, '/lint');
    assert.equal(recorded?.body, 'language: ruby\n');
    assert.equal(recorded?.headers['content-type'], 'text/yaml');
  });
});

describe('fake CI: configurable names', () => {
  it('uses the media type and version header it is given', async (t) => {
    const ci = await startFakeCi({
      mediaType: 'application/vnd.example.2.1+json',
      versionHeader: 'Example-API-Version',
    });
    t.after(() => ci.close());
    assert.equal(
      (await call(ci.url, '/repos/891', { accept: 'application/vnd.example.2.1+json' })).status,
      200,
    );
    assert.equal((await call(ci.url, '/repos/891')).status, 406);
    const v3 = await call(ci.url, '/repo/891', {
      accept: 'application/json',
      headers: { 'example-api-version': '3' },
    });
    assert.equal(field(v3.json, '@type'), 'repository');
  });
});
