import assert from 'node:assert/strict';
import { constants, publicEncrypt } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { fixture } from './fixtures.js';
import { type FakeCi, startFakeCi } from './index.js';
import { call, field } from './test-helpers.js';

function ids(json: unknown, key: string): number[] {
  return (field(json, key) as Array<{ id: number }>).map((item) => item.id);
}

describe('fake CI: repositories', () => {
  let ci: FakeCi;
  before(async () => {
    ci = await startFakeCi();
  });
  after(() => ci.close());

  it('answers the rails fixture by slug and by id', async () => {
    const expected = fixture('travisrb_v2_repo_rails.json');
    assert.deepEqual((await call(ci.url, '/repos/rails/rails')).json, expected);
    assert.deepEqual((await call(ci.url, '/repos/891')).json, expected);
  });

  it('answers the repos-list fixture entry for pypug/django-mango', async () => {
    const response = await call(ci.url, '/repos?slug=pypug/django-mango');
    assert.deepEqual(response.json, fixture('travisrb_v2_repos_list.json'));
  });

  it('shows the string `active` quirk of the private repository', async () => {
    const response = await call(ci.url, '/repos/9001', { token: 'token-rkh' });
    assert.equal(field(response.json, 'repo', 'active'), 'true');
  });

  it('filters by ids, member, owner_name, search and active', async () => {
    assert.deepEqual(ids((await call(ci.url, '/repos?ids[]=891&ids[]=107495')).json, 'repos'), [891, 107495]);
    assert.deepEqual(ids((await call(ci.url, '/repos?member=rkh')).json, 'repos'), [891]);
    assert.deepEqual(
      ids((await call(ci.url, '/repos?member=rkh', { token: 'token-rkh' })).json, 'repos').sort(),
      [891, 9001],
    );
    assert.deepEqual(ids((await call(ci.url, '/repos?owner_name=pypug')).json, 'repos'), [107495]);
    assert.deepEqual(ids((await call(ci.url, '/repos?search=mango')).json, 'repos'), [107495]);
    const inactive = ci.state.addRepo({ slug: 'someone/sleeping', active: false });
    const active = ids((await call(ci.url, '/repos?owner_name=someone&active=true')).json, 'repos');
    assert.deepEqual(active, []);
    assert.deepEqual(ids((await call(ci.url, '/repos?owner_name=someone')).json, 'repos'), [inactive.id]);
  });

  it('refuses ids combined with other parameters', async () => {
    const response = await call(ci.url, '/repos?ids=891&owner_name=rails');
    assert.equal(response.status, 400);
    assert.equal(field(response.json, 'error_type'), 'invalid_parameters');
  });

  it('finds slugs with dots, dashes and underscores', async () => {
    const repo = ci.state.addRepo({ slug: 'my.org/web-app_v2' });
    assert.equal(field((await call(ci.url, '/repos/my.org/web-app_v2')).json, 'repo', 'id'), repo.id);
    const builds = await call(ci.url, '/repos/my.org/web-app_v2/builds');
    assert.deepEqual(builds.json, { builds: [], jobs: [], commits: [] });
    assert.equal((await call(ci.url, '/repos/my.org%2Fweb-app_v2')).status, 404, 'V2 keeps the slash');
  });

  it('serves the fixture key of rails/rails, whose private half is unknown', async () => {
    assert.deepEqual(
      (await call(ci.url, '/repos/rails/rails/key')).json,
      fixture('travisrb_v2_repo_key.json'),
    );
    assert.throws(() => ci.state.decryptSecure(891, 'AAAA'), /no known private half/);
  });

  it('regenerates a real RSA key whose private half the state exposes', async () => {
    const denied = await call(ci.url, '/repos/891/key', { method: 'POST', token: 'token-visitor' });
    assert.equal(denied.status, 403);
    const response = await call(ci.url, '/repos/891/key', { method: 'POST', token: 'token-rkh' });
    assert.equal(response.status, 200);
    const key = String(field(response.json, 'key'));
    assert.match(key, /^-----BEGIN PUBLIC KEY-----/);
    assert.match(String(field(response.json, 'fingerprint')), /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    const secret = publicEncrypt({ key, padding: constants.RSA_PKCS1_PADDING }, Buffer.from('TOKEN=abc'));
    assert.equal(ci.state.decryptSecure(891, secret.toString('base64')), 'TOKEN=abc');
    assert.ok(ci.state.keyOf(891).privateKeyPem?.startsWith('-----BEGIN PRIVATE KEY-----'));
    assert.deepEqual((await call(ci.url, '/repos/891/key')).json, response.json);
  });

  it('lists and updates hooks of repositories the user administers', async () => {
    const hooks = await call(ci.url, '/hooks', { token: 'token-rkh' });
    assert.deepEqual(ids(hooks.json, 'hooks').sort(), [891, 9001]);
    assert.deepEqual((field(hooks.json, 'hooks') as unknown[])[0], {
      id: 891,
      name: 'rails',
      owner_name: 'rails',
      description: 'Ruby on Rails',
      active: true,
      private: false,
      admin: true,
    });
    const off = await call(ci.url, '/hooks', {
      method: 'PUT',
      token: 'token-rkh',
      body: { hook: { id: 891, active: false } },
    });
    assert.deepEqual([off.status, off.json], [200, { result: true }]);
    assert.equal(ci.state.getRepo(891)?.active, false);
    const on = await call(ci.url, '/hooks/891', {
      method: 'PUT',
      token: 'token-rkh',
      body: 'hook[active]=true',
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.equal(on.status, 200);
    assert.equal(ci.state.getRepo(891)?.active, true);
    const denied = await call(ci.url, '/hooks/891', {
      method: 'PUT',
      token: 'token-visitor',
      body: { hook: { active: false } },
    });
    assert.equal(denied.status, 403);
  });
});
