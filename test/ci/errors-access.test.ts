import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getBuild, listRepoBuilds, restartBuild } from '../../src/ci/builds.js';
import { getJob } from '../../src/ci/jobs.js';
import { getRepo } from '../../src/ci/repos.js';
import { getSettings, updateSettings } from '../../src/ci/settings.js';
import {
  only,
  RAILS_ID,
  rejectsWith,
  SECRET_BUILD,
  SECRET_REPO_ID,
  type Setup,
  setUp,
  VISITOR_TOKEN,
} from './helpers.js';

describe('CI client: unauthenticated, not_found and insufficient_access', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  it('a token the service does not know is unauthenticated (401), on any route', async () => {
    const error = await rejectsWith(getRepo(ci.as('token-revoked'), 'rails/rails'), 'unauthenticated');
    assert.equal(error.data.status, 401);
    assert.equal(error.data.errorType, 'invalid_token');
    assert.equal(error.data.deployment, 'com');
    assert.equal(error.data.path, '/repos/rails/rails');
    only(ci.take());
  });

  it('a private repository without a token: 401 login_required is unauthenticated', async () => {
    const error = await rejectsWith(getRepo(ci.as(null), SECRET_REPO_ID), 'unauthenticated');
    assert.equal(error.data.status, 401);
    assert.equal(error.data.errorType, 'login_required');
    ci.take();
  });

  it('a missing resource is not_found (404)', async () => {
    const error = await rejectsWith(getBuild(ci.as(), 123), 'not_found');
    assert.equal(error.data.status, 404);
    assert.equal(error.data.method, 'GET');
    await rejectsWith(getJob(ci.as(null), 123), 'not_found');
    ci.take();
  });

  it("V2.1's 400 for a private repository the token may not see is not_found", async () => {
    const error = await rejectsWith(getRepo(ci.as(VISITOR_TOKEN), 'rkh/secret-project'), 'not_found');
    assert.equal(error.data.status, 400);
    assert.equal(error.data.serviceMessage, 'You do not have access to this repository.');
    await rejectsWith(getBuild(ci.as(VISITOR_TOKEN), SECRET_BUILD), 'not_found');
    ci.take();
  });

  it('a visible repository without the permission: insufficient_access (403) with the service message', async () => {
    const error = await rejectsWith(
      updateSettings(ci.as(VISITOR_TOKEN), RAILS_ID, { build_pushes: false }),
      'insufficient_access',
    );
    assert.equal(error.data.status, 403);
    assert.equal(error.data.errorType, 'insufficient_access');
    assert.equal(error.data.serviceMessage, 'operation requires admin access to repository');
    ci.take();
  });
});

describe('CI client: empty 200 for a private repository, and 404 without a token', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp({ fake: { privateNoAccess: 'empty200', privateUnauthenticatedStatus: 404 } });
  });
  after(() => ci.close());

  it('an empty 200 answer to a read is not_found, not a schema failure', async () => {
    const repo = await rejectsWith(getRepo(ci.as(VISITOR_TOKEN), SECRET_REPO_ID), 'not_found');
    assert.equal(repo.data.status, 200);
    await rejectsWith(getBuild(ci.as(VISITOR_TOKEN), SECRET_BUILD), 'not_found');
    await rejectsWith(getSettings(ci.as(VISITOR_TOKEN), SECRET_REPO_ID), 'not_found');
    ci.take();
  });

  it('an empty list stays an empty list', async () => {
    const { builds } = await listRepoBuilds(ci.as(VISITOR_TOKEN), SECRET_REPO_ID);
    assert.deepEqual(builds, []);
    ci.take();
  });

  it('without a token the private repository answers 404: not_found', async () => {
    const error = await rejectsWith(getRepo(ci.as(null), 'rkh/secret-project'), 'not_found');
    assert.equal(error.data.status, 404);
    ci.take();
  });
});

describe('CI client: migrated_repository on the wound-down deployment', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp({ fake: { deployment: 'org' } });
    const repo = ci.fake.state.getRepo(RAILS_ID);
    assert.ok(repo);
    repo.migrated = true;
  });
  after(() => ci.close());

  it('a write to a migrated repository is migrated_repository with the service message; reads still work', async () => {
    const error = await rejectsWith(restartBuild(ci.as(), 4125095), 'migrated_repository');
    assert.equal(error.data.status, 403);
    assert.equal(error.data.errorType, 'migrated_repository');
    assert.match(error.data.serviceMessage ?? '', /has been migrated to travis-ci\.com/);
    assert.match(error.message, /migrated/);
    assert.equal(error.data.deployment, 'org');
    await rejectsWith(updateSettings(ci.as(), RAILS_ID, { build_pushes: false }), 'migrated_repository');
    assert.equal((await getRepo(ci.as(), RAILS_ID)).id, RAILS_ID);
    ci.take();
  });
});
