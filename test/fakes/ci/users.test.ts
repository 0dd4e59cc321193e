import assert from 'node:assert/strict';
import { once } from 'node:events';
import { describe, it } from 'node:test';
import { fixture } from './fixtures.js';
import { startFakeCi } from './index.js';
import { call, field } from './test-helpers.js';

const rkh = { token: 'token-rkh' };

describe('fake CI: users', () => {
  it('answers the current user with channels, on /users and /users/', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const expected = (fixture('travisrb_v2_user.json') as { user: object }).user;
    for (const path of ['/users', '/users/', '/users/267']) {
      const response = await call(ci.url, path, rkh);
      assert.deepEqual(field(response.json, 'user'), {
        ...expected,
        created_at: '2011-08-14T10:06:46Z',
        channels: ['private-user-267'],
      });
    }
    assert.equal((await call(ci.url, '/users/4242', rkh)).status, 404, 'only your own record');
  });

  it('lists permissions as arrays of repository ids', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    ci.state.addRepo({ slug: 'rkh/pushy', id: 77 });
    ci.state.grant('rkh', 77, 'push');
    const response = await call(ci.url, '/users/permissions', rkh);
    assert.deepEqual(response.json, {
      permissions: [77, 891, 9001],
      admin: [891, 9001],
      pull: [77, 891, 9001],
      push: [77, 891, 9001],
    });
    const visitor = await call(ci.url, '/users/permissions', { token: 'token-visitor' });
    assert.deepEqual(visitor.json, { permissions: [], admin: [], pull: [], push: [] });
  });

  it('syncs: 200, then 409 while syncing, until the sync ends', async (t) => {
    // Long enough that the two requests below always fall inside the sync, even on a loaded machine.
    const ci = await startFakeCi({ syncDurationMs: 1_500 });
    t.after(() => ci.close());
    const finished = once(ci.events, 'sync');
    const first = await call(ci.url, '/users/sync', { ...rkh, method: 'POST' });
    assert.deepEqual([first.status, first.json], [200, { result: true }]);
    assert.equal(field((await call(ci.url, '/users', rkh)).json, 'user', 'is_syncing'), true);
    const second = await call(ci.url, '/users/sync', { ...rkh, method: 'POST' });
    assert.deepEqual(
      [second.status, second.json],
      [409, { message: 'Sync already in progress. Try again later.' }],
    );
    await finished;
    assert.equal(field((await call(ci.url, '/users', rkh)).json, 'user', 'is_syncing'), false);
    assert.equal((await call(ci.url, '/users/sync', { ...rkh, method: 'POST' })).status, 200);
  });
});

describe('fake CI: accounts, broadcasts, config, token exchange', () => {
  it('lists admin accounts, and all memberships with all=true', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const own = await call(ci.url, '/accounts', rkh);
    assert.deepEqual(own.json, {
      accounts: [
        { name: 'Konstantin Haase', login: 'rkh', type: 'user', repos_count: 200, subscribed: false },
      ],
    });
    const all = await call(ci.url, '/accounts?all=true', rkh);
    assert.deepEqual(
      (field(all.json, 'accounts') as Array<{ login: string }>).map((a) => a.login),
      ['rkh', 'rails'],
    );
  });

  it('leaves subscribed out off the hosted private deployment', async (t) => {
    const ci = await startFakeCi({ deployment: 'org' });
    t.after(() => ci.close());
    assert.deepEqual((await call(ci.url, '/accounts', rkh)).json, fixture('travisrb_v2_accounts.json'));
  });

  it('answers broadcasts', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    assert.deepEqual((await call(ci.url, '/broadcasts', rkh)).json, fixture('travisrb_v2_broadcasts.json'));
  });

  it('echoes the pusher settings in /config, never the secret', async (t) => {
    const pusher = {
      key: 'abc',
      secret: 'shh',
      host: '127.0.0.1',
      port: 4567,
      scheme: 'ws',
      private: true,
    } as const;
    const ci = await startFakeCi({ pusher });
    t.after(() => ci.close());
    const config = await call(ci.url, '/config');
    assert.deepEqual(field(config.json, 'config', 'pusher'), {
      key: 'abc',
      host: '127.0.0.1',
      port: 4567,
      scheme: 'ws',
      private: true,
    });
    assert.deepEqual(field(config.json, 'config', 'github', 'scopes'), [
      'read:org',
      'user:email',
      'repo_deployment',
      'repo:status',
      'write:repo_hook',
    ]);
    assert.deepEqual((await call(ci.url, '/')).json, { hello: 'world' });
  });

  it('exchanges a known GitHub token for the API token', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const ok = await call(ci.url, '/auth/github', {
      method: 'POST',
      body: { github_token: 'github-token-rkh' },
    });
    assert.deepEqual([ok.status, ok.json], [200, { access_token: 'token-rkh' }]);
    const unknown = await call(ci.url, '/auth/github', { method: 'POST', body: { github_token: 'other' } });
    assert.equal(unknown.status, 403);
    const missing = await call(ci.url, '/auth/github', { method: 'POST', body: {} });
    assert.equal(missing.status, 422);
  });
});

describe('fake CI: lint', () => {
  it('lints content sent as form, JSON or raw YAML', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const clean = await call(ci.url, '/lint', {
      method: 'POST',
      body: `content=${encodeURIComponent('language: ruby\nscript: rake\n')}`,
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.deepEqual(clean.json, { lint: { warnings: [] } });
    const json = await call(ci.url, '/lint', {
      method: 'POST',
      body: { content: 'language: rubby\nfoo: 1\n' },
    });
    assert.deepEqual(json.json, {
      lint: {
        warnings: [
          { key: ['foo'], message: 'unexpected key "foo", dropping' },
          { key: ['language'], message: 'illegal value "rubby", defaulting to "ruby"' },
        ],
      },
    });
    const raw = await call(ci.url, '/lint', {
      method: 'PUT',
      body: 'script: [unclosed\n',
      contentType: 'text/yaml',
    });
    const warnings = field(raw.json, 'lint', 'warnings') as Array<{ key: string[]; message: string }>;
    assert.equal(warnings.length, 1);
    assert.deepEqual(warnings[0]?.key, []);
    assert.match(warnings[0]?.message ?? '', /^syntax error/);
    const noLanguage = await call(ci.url, '/lint', {
      method: 'PUT',
      body: 'script: rake\n',
      contentType: 'text/yaml',
    });
    assert.deepEqual(field(noLanguage.json, 'lint', 'warnings'), [
      { key: ['language'], message: 'missing key "language", defaulting to "ruby"' },
    ]);
  });
});
