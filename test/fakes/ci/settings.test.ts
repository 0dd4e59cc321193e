import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { describe, it } from 'node:test';
import { startFakeCi } from './index.js';
import { call, field } from './test-helpers.js';

const rkh = { token: 'token-rkh' };

describe('fake CI: settings', () => {
  it('reads and patches settings, auto_cancel keys included', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const read = await call(ci.url, '/repos/891/settings', rkh);
    assert.deepEqual(read.json, {
      settings: {
        builds_only_with_travis_yml: false,
        build_pushes: true,
        build_pull_requests: true,
        maximum_number_of_builds: 0,
        auto_cancel_pushes: false,
        auto_cancel_pull_requests: false,
      },
    });
    const body = { settings: { build_pushes: false, maximum_number_of_builds: 3 } };
    const patched = await call(ci.url, '/repos/891/settings', { ...rkh, method: 'PATCH', body });
    assert.equal(field(patched.json, 'settings', 'build_pushes'), false);
    assert.equal(field(patched.json, 'settings', 'maximum_number_of_builds'), 3);
    assert.equal(ci.state.getSettings(891).build_pushes, false);
    const bad = await call(ci.url, '/repos/891/settings', {
      ...rkh,
      method: 'PATCH',
      body: { settings: { build_pushes: 'no' } },
    });
    assert.deepEqual(
      [bad.status, bad.json],
      [422, { message: 'Validation failed', errors: [{ field: 'build_pushes', code: 'invalid' }] }],
    );
    assert.equal(
      (await call(ci.url, '/repos/rails/rails/settings', rkh)).status,
      404,
      'settings are by id only',
    );
  });
});

describe('fake CI: environment variables', () => {
  it('lists on both paths without private values, creates, updates and deletes', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    for (const path of ['/settings/env_vars', '/repos/settings/env_vars']) {
      const list = await call(ci.url, `${path}?repository_id=891`, rkh);
      assert.deepEqual(field(list.json, 'env_vars', 0), {
        id: '8aa1c74d-dcc4-4e41-9087-1326b7c68abd',
        name: 'encrypted_randomhex_key',
        public: false,
        repository_id: 891,
      });
    }
    assert.equal((await call(ci.url, '/settings/env_vars', rkh)).status, 400, 'repository_id is required');
    const created = await call(ci.url, '/repos/settings/env_vars?repository_id=891', {
      ...rkh,
      method: 'POST',
      body: { env_var: { name: 'SHOWN', value: 'visible', public: true } },
    });
    assert.equal(created.status, 200);
    const id = String(field(created.json, 'env_var', 'id'));
    assert.match(id, /^[0-9a-f-]{36}$/);
    assert.equal(field(created.json, 'env_var', 'value'), 'visible');
    const duplicate = await call(ci.url, '/repos/settings/env_vars?repository_id=891', {
      ...rkh,
      method: 'POST',
      body: { env_var: { name: 'SHOWN', value: 'again' } },
    });
    assert.equal(duplicate.status, 422);
    const hidden = await call(ci.url, `/repos/settings/env_vars/${id}`, {
      ...rkh,
      method: 'PATCH',
      body: { env_var: { public: false } },
    });
    assert.deepEqual(field(hidden.json, 'env_var'), { id, name: 'SHOWN', public: false, repository_id: 891 });
    assert.equal(ci.state.envVars.get(id)?.value, 'visible', 'an omitted value is kept');
    const one = await call(ci.url, `/repos/settings/env_vars/${id}?repository_id=891`, rkh);
    assert.equal(field(one.json, 'env_var', 'name'), 'SHOWN');
    const deleted = await call(ci.url, `/repos/settings/env_vars/${id}`, { ...rkh, method: 'DELETE' });
    assert.equal(deleted.status, 200);
    assert.equal(ci.state.envVars.has(id), false);
    assert.equal((await call(ci.url, `/repos/settings/env_vars/${id}`, rkh)).status, 404);
  });

  it('needs admin to write and push to read', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    assert.equal(
      (await call(ci.url, '/settings/env_vars?repository_id=891', { token: 'token-visitor' })).status,
      403,
    );
    const write = await call(ci.url, '/settings/env_vars?repository_id=891', {
      token: 'token-visitor',
      method: 'POST',
      body: { env_var: { name: 'X', value: 'y' } },
    });
    assert.equal(write.status, 403);
  });
});

describe('fake CI: SSH key', () => {
  it('creates, reads and deletes the custom key; refuses something that is not a private key', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    assert.equal((await call(ci.url, '/settings/ssh_key/891', rkh)).status, 404);
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    const value = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const saved = await call(ci.url, '/settings/ssh_key/891', {
      ...rkh,
      method: 'PATCH',
      body: { ssh_key: { description: 'deploy key', value } },
    });
    assert.equal(saved.status, 200);
    assert.equal(field(saved.json, 'ssh_key', 'description'), 'deploy key');
    assert.match(String(field(saved.json, 'ssh_key', 'fingerprint')), /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    const read = await call(ci.url, '/settings/ssh_key/891', rkh);
    assert.deepEqual(read.json, saved.json);
    const garbage = await call(ci.url, '/settings/ssh_key/891', {
      ...rkh,
      method: 'PATCH',
      body: { ssh_key: { value: 'nope' } },
    });
    assert.equal(garbage.status, 422);
    const missing = await call(ci.url, '/settings/ssh_key/891', {
      ...rkh,
      method: 'PATCH',
      body: { ssh_key: {} },
    });
    assert.deepEqual(missing.json, {
      message: 'Validation failed',
      errors: [{ field: 'value', code: 'missing_field' }],
    });
    assert.equal((await call(ci.url, '/settings/ssh_key/891', { ...rkh, method: 'DELETE' })).status, 200);
    assert.equal((await call(ci.url, '/settings/ssh_key/891', rkh)).status, 404);
  });
});

describe('fake CI: caches', () => {
  it('lists and deletes caches filtered by branch and match', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const all = await call(ci.url, '/repos/rails/rails/caches', rkh);
    assert.equal((field(all.json, 'caches') as unknown[]).length, 3);
    assert.deepEqual(Object.keys(field(all.json, 'caches', 0) as object), [
      'repository_id',
      'size',
      'slug',
      'branch',
      'last_modified',
    ]);
    const master = await call(ci.url, '/repos/891/caches?branch=master&match=2.0.0', rkh);
    assert.deepEqual(
      (field(master.json, 'caches') as Array<{ slug: string }>).map((c) => c.slug),
      ['cache--rvm-2.0.0--gemfile-Gemfile'],
    );
    const deleted = await call(ci.url, '/repos/891/caches?branch=master', { ...rkh, method: 'DELETE' });
    assert.equal((field(deleted.json, 'caches') as unknown[]).length, 2);
    assert.deepEqual(
      ci.state.cachesOf(891).map((c) => c.branch),
      ['4-0-stable'],
    );
  });
});
