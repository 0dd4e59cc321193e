import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getV3Repository, migrateRepository } from '../../src/ci/migration.js';
import { lines, only, RAILS_ID, rejectsWith, type Setup, setUp, VISITOR_TOKEN } from './helpers.js';

const SLUGS = ['rkh/dotted.repo-name_x', 'my-org.io/some_repo.js', 'under_score/dash-ed'];

/** Resolves with every status the migration of `id` announces, once it reaches `last`. */
function migrationSteps(ci: Setup, id: number, last: string): Promise<string[]> {
  const seen: string[] = [];
  return new Promise((resolve) => {
    const onStep = (step: { repositoryId: number; status: string }) => {
      if (step.repositoryId !== id) return;
      seen.push(step.status);
      if (step.status !== last) return;
      ci.fake.events.off('migration', onStep);
      resolve(seen);
    };
    ci.fake.events.on('migration', onStep);
  });
}

describe('CI client: V3 repository and migration (4.20)', () => {
  let ci: Setup;
  const ids = new Map<string, number>();
  before(async () => {
    ci = await setUp({ fake: { migrationStepMs: 5 } });
    for (const slug of SLUGS) {
      const repo = ci.fake.state.addRepo({ slug });
      ci.fake.state.grant('rkh', repo, 'admin');
      ids.set(slug, repo.id);
    }
  });
  after(() => ci.close());

  it('GET /repo/{id} and /repo/{owner%2Fname}, with @ metadata and migration_status', async () => {
    const byId = await getV3Repository(ci.as(), RAILS_ID);
    assert.equal(byId['@type'], 'repository');
    assert.equal(byId['@permissions']?.migrate, true);
    assert.equal(byId['@representation'], 'standard');
    assert.equal(byId.migration_status, null);
    assert.deepEqual(await getV3Repository(ci.as(), 'rails/rails'), byId);
    assert.deepEqual(lines(ci.take()), [`GET /repo/${RAILS_ID}`, 'GET /repo/rails%2Frails']);
  });

  for (const slug of SLUGS) {
    it(`GET and POST migrate by the encoded slug ${slug}`, async () => {
      const id = ids.get(slug);
      assert.ok(id);
      assert.equal((await getV3Repository(ci.as(), slug)).id, id);
      const steps = migrationSteps(ci, id, 'migrated');
      const answer = await migrateRepository(ci.as(), slug);
      assert.equal(answer.id, id);
      assert.equal(answer.migration_status, 'queued');
      assert.deepEqual(await steps, ['queued', 'migrating', 'migrated']);
      assert.equal((await getV3Repository(ci.as(), id)).migration_status, 'migrated');
      const encoded = encodeURIComponent(slug);
      assert.ok(encoded.includes('%2F'));
      assert.deepEqual(lines(ci.take()), [
        `GET /repo/${encoded}`,
        `POST /repo/${encoded}/migrate`,
        `GET /repo/${id}`,
      ]);
    });
  }

  it('POST /repo/{id}/migrate sends an empty body; asking again is already_migrated', async () => {
    const repo = ci.fake.state.addRepo({ slug: 'rkh/again' });
    ci.fake.state.grant('rkh', repo, 'admin');
    const steps = migrationSteps(ci, repo.id, 'migrated');
    await migrateRepository(ci.as(), repo.id);
    assert.equal(ci.take().at(-1)?.body, '');
    await steps;
    const error = await rejectsWith(migrateRepository(ci.as(), repo.id), 'already_migrated');
    assert.equal(error.data.status, 403);
    assert.equal(error.data.errorType, 'repo_migrated');
    assert.match(error.data.serviceMessage ?? '', /has been migrated to travis-ci\.com/);
    only(ci.take());
  });

  it('migrating without admin is insufficient_access with permission and resource_type', async () => {
    const error = await rejectsWith(
      migrateRepository(ci.as(VISITOR_TOKEN), 'rails/rails'),
      'insufficient_access',
    );
    assert.equal(error.data.status, 403);
    assert.equal(error.data.errorType, 'insufficient_access');
    assert.equal(error.data.permission, 'migrate');
    assert.equal(error.data.resourceType, 'repository');
    assert.equal(error.data.serviceMessage, 'operation requires migrate access to repository');
    ci.take();
  });

  it('a repository that is missing or hidden is not_found with resource_type', async () => {
    const missing = await rejectsWith(getV3Repository(ci.as(), 987654), 'not_found');
    assert.equal(missing.data.resourceType, 'repository');
    assert.equal(missing.data.errorType, 'not_found');
    assert.equal(missing.data.status, 404);
    await rejectsWith(getV3Repository(ci.as(VISITOR_TOKEN), 'rkh/secret-project'), 'not_found');
    ci.take();
  });

  it('migrate needs a token (refused before sending); a bad token is V3 login_required', async () => {
    await rejectsWith(migrateRepository(ci.as(null), RAILS_ID), 'unauthenticated');
    assert.deepEqual(ci.take(), []);
    const error = await rejectsWith(getV3Repository(ci.as('revoked-token'), RAILS_ID), 'unauthenticated');
    assert.equal(error.data.errorType, 'login_required');
    assert.equal(error.data.status, 403);
    only(ci.take());
  });
});
