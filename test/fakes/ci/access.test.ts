import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixture } from './fixtures.js';
import { startFakeCi } from './index.js';
import { call, field } from './test-helpers.js';

const migratedBody = fixture('travisapi_v2_error_migrated_repository.json');

describe('fake CI: access rules (spec section 7)', () => {
  it('answers 401 to Required operations without a token', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    for (const path of ['/users', '/users/', '/accounts', '/broadcasts', '/hooks', '/users/permissions']) {
      const response = await call(ci.url, path);
      assert.equal(response.status, 401, path);
      assert.equal(field(response.json, 'error_type'), 'login_required');
    }
    assert.equal((await call(ci.url, '/builds/4125095/cancel', { method: 'POST' })).status, 401);
    assert.equal((await call(ci.url, '/repos/9001/caches')).status, 401);
  });

  it('hides private repositories: 401 without token, 400 without access, 200 with access', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    for (const path of [
      '/repos/rkh/secret-project',
      '/repos/9001/builds',
      '/builds/9100',
      '/jobs/9101',
      '/jobs/9101/log',
    ]) {
      assert.equal((await call(ci.url, path)).status, 401, path);
      const visitor = await call(ci.url, path, { token: 'token-visitor' });
      assert.equal(visitor.status, 400, path);
      assert.equal(field(visitor.json, 'error_type'), 'no_access');
      assert.equal((await call(ci.url, path, { token: 'token-rkh' })).status, 200, path);
    }
  });

  it('leaves private data out of lists and lookups by id', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const anonymous = await call(ci.url, '/builds?ids=9100,4125095');
    assert.deepEqual(
      (field(anonymous.json, 'builds') as Array<{ id: number }>).map((b) => b.id),
      [4125095],
    );
    const owner = await call(ci.url, '/builds?ids=9100,4125095', { token: 'token-rkh' });
    assert.equal((field(owner.json, 'builds') as unknown[]).length, 2);
  });

  it('can answer 404 without token and an empty 200 without access, as the options choose', async (t) => {
    const ci = await startFakeCi({ privateUnauthenticatedStatus: 404, privateNoAccess: 'empty200' });
    t.after(() => ci.close());
    assert.equal((await call(ci.url, '/repos/rkh/secret-project')).status, 404);
    const builds = await call(ci.url, '/repos/9001/builds', { token: 'token-visitor' });
    assert.equal(builds.status, 200);
    assert.deepEqual(builds.json, { builds: [], jobs: [], commits: [] });
    const repo = await call(ci.url, '/repos/9001', { token: 'token-visitor' });
    assert.deepEqual([repo.status, repo.json], [200, {}]);
  });

  it('needs push for cancel and restart, admin for settings writes', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    ci.state.addUser({ login: 'pusher' });
    ci.state.grant('pusher', 'rails/rails', 'push');
    const build = ci.state.addBuild('rails/rails', { state: 'started' });

    const denied = await call(ci.url, `/builds/${build.id}/cancel`, {
      method: 'POST',
      token: 'token-visitor',
    });
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.json, {
      error: { message: `You don't have access to cancel build(${build.id})` },
    });
    const settingsRead = await call(ci.url, '/repos/891/settings', { token: 'token-visitor' });
    assert.equal(settingsRead.status, 403);
    assert.equal(field(settingsRead.json, 'error_type'), 'insufficient_access');
    assert.equal((await call(ci.url, '/repos/891/settings', { token: 'token-pusher' })).status, 200);
    const patch = {
      method: 'PATCH',
      token: 'token-pusher',
      body: { settings: { build_pushes: false } },
    } as const;
    assert.equal((await call(ci.url, '/repos/891/settings', patch)).status, 403);
    assert.equal(
      (await call(ci.url, `/builds/${build.id}/cancel`, { method: 'POST', token: 'token-pusher' })).status,
      204,
    );
  });

  it('refuses writes to a migrated repository on the wound-down deployment, reads still work', async (t) => {
    const ci = await startFakeCi({ deployment: 'org' });
    t.after(() => ci.close());
    const repo = ci.state.addRepo({ slug: 'rkh/moved-away', migrated: true });
    ci.state.grant('rkh', repo.id, 'admin');
    const build = ci.state.addBuild(repo, { state: 'passed' });
    assert.equal((await call(ci.url, `/repos/${repo.id}`, { token: 'token-rkh' })).status, 200);
    for (const [path, method] of [
      [`/builds/${build.id}/restart`, 'POST'],
      [`/jobs/${build.jobIds[0]}/restart`, 'POST'],
      [`/repos/${repo.id}/settings`, 'PATCH'],
      [`/repos/${repo.id}/key`, 'POST'],
      [`/repos/${repo.id}/caches`, 'DELETE'],
    ] as const) {
      const response = await call(ci.url, path, { method, token: 'token-rkh', body: {} });
      assert.equal(response.status, 403, path);
      assert.deepEqual(response.json, migratedBody);
    }
  });

  it('lets the same writes through on the hosted deployment', async (t) => {
    const ci = await startFakeCi({ deployment: 'com' });
    t.after(() => ci.close());
    const repo = ci.state.addRepo({ slug: 'rkh/moved-away', migrated: true });
    ci.state.grant('rkh', repo.id, 'admin');
    const build = ci.state.addBuild(repo, { state: 'passed' });
    assert.equal(
      (await call(ci.url, `/builds/${build.id}/restart`, { method: 'POST', token: 'token-rkh' })).status,
      202,
    );
  });
});
