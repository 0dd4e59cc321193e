import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CiClient } from '../../src/ci/client.js';
import { deleteRepoCaches } from '../../src/ops/caches.js';
import { setRepoEnvVar, shownVar } from '../../src/ops/env-vars.js';
import { latestBranchBuilds, recentRequests, setRepoActive } from '../../src/ops/repos.js';
import { changedSettings } from '../../src/ops/settings.js';
import { type FakeCi, startFakeCi } from '../fakes/ci/index.js';

describe('env var use cases', () => {
  it('shownVar never keeps the value of a private variable', () => {
    assert.deepEqual(shownVar({ id: '1', name: 'A', value: 'secret', public: false }), {
      id: '1',
      name: 'A',
      public: false,
    });
    assert.deepEqual(shownVar({ id: '2', name: 'B', value: 'open', public: true }), {
      id: '2',
      name: 'B',
      public: true,
      value: 'open',
    });
  });
});

describe('settings use cases', () => {
  it('changedSettings lists only the keys whose value differs, in order', () => {
    const before = { build_pushes: true, maximum_number_of_builds: 0, auto_cancel_pushes: false };
    assert.deepEqual(changedSettings(before, { ...before }), []);
    assert.deepEqual(
      changedSettings(before, { build_pushes: false, maximum_number_of_builds: 0, unknown: 1 }),
      [{ key: 'build_pushes', from: true, to: false }],
    );
  });
});

describe('repository use cases against the fake CI service', () => {
  let ci: FakeCi;
  let client: CiClient;
  before(async () => {
    ci = await startFakeCi();
    client = new CiClient({
      deployments: { com: { name: 'com', apiUrl: ci.url, webUrl: 'https://app.travis-ci.com' } },
      mediaType: 'application/vnd.travis-ci.2.1+json',
      versionHeader: 'Travis-API-Version',
      connectTimeoutMs: 1_000,
      requestTimeoutMs: 1_500,
      maxRetries: 0,
      userAgent: 'ci-slack-test/0.0.0',
    });
  });
  after(async () => {
    await client.close();
    await ci.close();
  });
  const rails = { kind: 'slug', owner: 'rails', name: 'rails', slug: 'rails/rails' } as const;

  it('setRepoEnvVar creates, then updates the same variable instead of adding another', async () => {
    const session = client.session('com', 'token-rkh');
    const created = await setRepoEnvVar(session, rails, { name: 'OPS_VAR', value: 'one', public: false });
    assert.equal(created.created, true);
    assert.ok(!('value' in created));
    const updated = await setRepoEnvVar(
      session,
      { kind: 'id', id: 891 },
      { name: 'OPS_VAR', value: 'two', public: true },
    );
    assert.equal(updated.created, false);
    const stored = ci.state.envVarsOf(891).filter((v) => v.name === 'OPS_VAR');
    assert.deepEqual(
      stored.map((v) => [v.value, v.public]),
      [['two', true]],
    );
  });

  it('setRepoActive turns the hook on and off by repository id', async () => {
    const session = client.session('com', 'token-rkh');
    assert.equal((await setRepoActive(session, rails, true)).active, true);
    assert.equal(ci.state.requireRepo(891).active, true);
    await setRepoActive(session, rails, false);
    assert.equal(ci.state.requireRepo(891).active, false);
  });

  it('recentRequests keeps the limit within 1..100', async () => {
    const session = client.session('com', 'token-rkh');
    await recentRequests(session, rails, 500);
    assert.equal(ci.requests.findLast((r) => r.path === '/requests')?.query.get('limit'), '100');
  });

  it('latestBranchBuilds names each branch from its commit', async () => {
    const { branches } = await latestBranchBuilds(client.session('com', 'token-rkh'), rails);
    assert.deepEqual(
      branches.map((b) => [b.branch, b.build.number]),
      [['master', '6180']],
    );
  });

  it('deleteRepoCaches sends only the filters given', async () => {
    const session = client.session('com', 'token-rkh');
    const { deleted } = await deleteRepoCaches(session, 'rails/rails', { branch: '4-0-stable', match: '' });
    assert.equal(deleted?.length, 1);
    const sent = ci.requests.findLast((r) => r.method === 'DELETE');
    assert.equal(sent?.query.get('branch'), '4-0-stable');
    assert.equal(sent?.query.has('match'), false);
  });
});
