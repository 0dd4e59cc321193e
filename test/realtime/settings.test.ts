import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import { Backoff } from '../../src/realtime/backoff.js';
import { pusherSettingsSchema, toPusherOptions, usesTls } from '../../src/realtime/settings.js';

const FIXTURES = new URL('../../../shared/fixtures/travis/', import.meta.url);
const TIMEOUTS = { activityTimeoutMs: 120_000, pongTimeoutMs: 30_000, unavailableTimeoutMs: 10_000 };
const noAuth = () => {};

describe('pusherSettingsSchema', () => {
  it('reads config.pusher from the documented GET /config answer', () => {
    const body = JSON.parse(readFileSync(new URL('travisapi_v2_config_doc_example.json', FIXTURES), 'utf8'));
    assert.deepEqual(pusherSettingsSchema.parse(body.config.pusher), { key: 'dd3f11c013317df48b50' });
  });

  it('keeps a relay’s fields, ignores unknown ones and accepts a numeric string port', () => {
    const settings = pusherSettingsSchema.parse({
      key: 'abc',
      host: 'relay.corp.example',
      port: '8080',
      path: '/pusher',
      scheme: 'HTTP',
      private: true,
      app_id: 42,
    });
    assert.deepEqual(settings, {
      key: 'abc',
      host: 'relay.corp.example',
      port: 8080,
      path: '/pusher',
      scheme: 'http',
      private: true,
    });
  });

  it('treats empty strings as absent and honours `secure` when no scheme is given', () => {
    assert.deepEqual(pusherSettingsSchema.parse({ key: 'k', host: '', path: ' ', secure: false }), {
      key: 'k',
      scheme: 'ws',
    });
    assert.deepEqual(pusherSettingsSchema.parse({ key: 'k', scheme: 'https', secure: false }), {
      key: 'k',
      scheme: 'https',
    });
  });

  it('rejects a missing key, an unknown scheme and an impossible port', () => {
    assert.equal(pusherSettingsSchema.safeParse({}).success, false);
    assert.equal(pusherSettingsSchema.safeParse({ key: '  ' }).success, false);
    assert.equal(pusherSettingsSchema.safeParse({ key: 'k', scheme: 'ftp' }).success, false);
    assert.equal(pusherSettingsSchema.safeParse({ key: 'k', port: 70000 }).success, false);
    assert.equal(pusherSettingsSchema.safeParse({ key: 'k', port: 'eighty' }).success, false);
  });
});

describe('toPusherOptions', () => {
  it('uses Pusher’s own cluster host over TLS when only a key is given', () => {
    const options = toPusherOptions({ key: 'k' }, TIMEOUTS, noAuth);
    assert.equal(options.cluster, 'mt1');
    assert.equal(options.forceTLS, true);
    assert.equal(options.wsHost, undefined);
    assert.deepEqual(options.enabledTransports, ['ws']);
    assert.equal(options.enableStats, false);
    assert.equal(options.activityTimeout, 120_000);
    assert.equal(options.channelAuthorization && 'customHandler' in options.channelAuthorization, true);
  });

  it('honours a cluster from the settings', () => {
    assert.equal(toPusherOptions({ key: 'k', cluster: 'eu' }, TIMEOUTS, noAuth).cluster, 'eu');
  });

  it('points at a relay: host, one port for both schemes, a normalised path, no TLS for http/ws', () => {
    const options = toPusherOptions(
      { key: 'k', host: 'relay.local', port: 8080, path: 'pusher/', scheme: 'http' },
      TIMEOUTS,
      noAuth,
    );
    assert.equal(options.wsHost, 'relay.local');
    assert.equal(options.wsPort, 8080);
    assert.equal(options.wssPort, 8080);
    assert.equal(options.wsPath, '/pusher');
    assert.equal(options.forceTLS, false);
    assert.equal(toPusherOptions({ key: 'k', path: '/' }, TIMEOUTS, noAuth).wsPath, undefined);
  });

  it('knows which schemes mean TLS', () => {
    assert.equal(usesTls({ key: 'k' }), true);
    assert.equal(usesTls({ key: 'k', scheme: 'wss' }), true);
    assert.equal(usesTls({ key: 'k', scheme: 'https' }), true);
    assert.equal(usesTls({ key: 'k', scheme: 'ws' }), false);
    assert.equal(usesTls({ key: 'k', scheme: 'http' }), false);
  });
});

describe('Backoff', () => {
  it('doubles up to the cap, with jitter between half and all of each step, and resets', () => {
    const lowest = new Backoff(100, 1000, () => 0);
    assert.deepEqual(
      [1, 2, 3, 4, 5, 6].map(() => lowest.next()),
      [50, 100, 200, 400, 500, 500],
    );
    const highest = new Backoff(100, 1000, () => 1);
    assert.deepEqual(
      [1, 2, 3, 4, 5].map(() => highest.next()),
      [100, 200, 400, 800, 1000],
    );
    highest.reset();
    assert.equal(highest.next(), 100);
  });
});
