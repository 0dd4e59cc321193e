import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteRepoCaches } from '../../src/ops/caches.js';
import { setRepoEnvVar, shownVar } from '../../src/ops/env-vars.js';
import { latestBranchBuilds, recentRequests, setRepoActive } from '../../src/ops/repos.js';
import { changedSettings } from '../../src/ops/settings.js';
import { type OpsWorld, startOpsWorld } from '../helpers/ops-world.js';

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
  let world: OpsWorld;
  before(async () => {
    world = await startOpsWorld();
  });
  after(() => world.close());
  const rails = { kind: 'slug', owner: 'rails', name: 'rails', slug: 'rails/rails' } as const;

  it('setRepoEnvVar creates, then updates the same variable instead of adding another', async () => {
    const session = world.as('rkh');
    const created = await setRepoEnvVar(session, rails, { name: 'OPS_VAR', value: 'one', public: false });
    assert.equal(created.created, true);
    assert.ok(!('value' in created));
    const updated = await setRepoEnvVar(
      session,
      { kind: 'id', id: 891 },
      { name: 'OPS_VAR', value: 'two', public: true },
    );
    assert.equal(updated.created, false);
    const stored = world.ci.state.envVarsOf(891).filter((v) => v.name === 'OPS_VAR');
    assert.deepEqual(
      stored.map((v) => [v.value, v.public]),
      [['two', true]],
    );
  });

  it('setRepoActive turns the hook on and off by repository id', async () => {
    const session = world.as('rkh');
    assert.equal((await setRepoActive(session, rails, true)).active, true);
    assert.equal(world.ci.state.requireRepo(891).active, true);
    await setRepoActive(session, rails, false);
    assert.equal(world.ci.state.requireRepo(891).active, false);
  });

  it('recentRequests keeps the limit within 1..100', async () => {
    const session = world.as('rkh');
    await recentRequests(session, rails, 500);
    assert.equal(world.ci.requests.findLast((r) => r.path === '/requests')?.query.get('limit'), '100');
  });

  it('latestBranchBuilds names each branch from its commit', async () => {
    const { branches } = await latestBranchBuilds(world.as('rkh'), rails);
    assert.deepEqual(
      branches.map((b) => [b.branch, b.build.number]),
      [['master', '6180']],
    );
  });

  it('deleteRepoCaches sends only the filters given', async () => {
    const session = world.as('rkh');
    const { deleted } = await deleteRepoCaches(session, 'rails/rails', { branch: '4-0-stable', match: '' });
    assert.equal(deleted?.length, 1);
    const sent = world.ci.requests.findLast((r) => r.method === 'DELETE');
    assert.equal(sent?.query.get('branch'), '4-0-stable');
    assert.equal(sent?.query.has('match'), false);
  });
});
