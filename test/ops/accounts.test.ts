import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { CiSession } from '../../src/ci/client.js';
import {
  findRepos,
  MAX_RESOLVED_REPOS,
  permissionsOf,
  startSync,
  waitForSync,
} from '../../src/ops/accounts.js';
import { UserFacingError } from '../../src/ops/describe-error.js';
import { type OpsWorld, startOpsWorld } from '../helpers/ops-world.js';

describe('account use cases against the fake CI service', () => {
  let world: OpsWorld;
  let session: CiSession;
  before(async () => {
    world = await startOpsWorld({ syncDurationMs: 60_000 });
    session = world.as('rkh');
  });
  after(() => world.close());

  it('waitForSync gives up, without an error, while the sync is still running', async () => {
    await startSync(session);
    const slept: number[] = [];
    const user = await waitForSync(session, [1, 2], async (ms) => void slept.push(ms));
    assert.equal(user, undefined);
    assert.deepEqual(slept, [1, 2]);
  });

  it('startSync turns a 409 into "a sync is already running"', async () => {
    await assert.rejects(startSync(session), (error: unknown) => {
      return error instanceof UserFacingError && /A sync is already running/.test(error.message);
    });
  });

  it('waitForSync gives the user once the sync finished', async () => {
    const record = world.ci.state.getUser('rkh');
    assert.ok(record);
    record.isSyncing = false;
    const user = await waitForSync(session, [1], async () => undefined);
    assert.equal(user?.login, 'rkh');
  });

  it('findRepos means "mine" unless an owner or member is named', async () => {
    await findRepos(session, 'rkh', { term: 'rails' });
    assert.equal(world.ci.requests.at(-1)?.query.get('member'), 'rkh');
    await findRepos(session, 'rkh', { owner: 'rails' });
    assert.equal(world.ci.requests.at(-1)?.query.has('member'), false);
    await findRepos(session, 'rkh', { owner: 'rails', member: 'visitor' });
    assert.equal(world.ci.requests.at(-1)?.query.get('member'), 'visitor');
  });

  it('permissionsOf resolves at most MAX_RESOLVED_REPOS slugs, admin ones first', async () => {
    for (let i = 0; i < MAX_RESOLVED_REPOS + 20; i++) {
      const repo = world.ci.state.addRepo({ slug: `many/repo-${i}` });
      world.ci.state.grant('rkh', repo.id, i < 10 ? 'push' : 'admin');
    }
    const summary = await permissionsOf(session);
    assert.equal(summary.slugs.size, MAX_RESOLVED_REPOS);
    for (const id of summary.ids.admin.slice(0, MAX_RESOLVED_REPOS)) assert.ok(summary.slugs.has(id));
    assert.equal(summary.slugs.get(891), 'rails/rails');
  });
});
