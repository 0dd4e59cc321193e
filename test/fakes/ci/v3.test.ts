import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixture } from './fixtures.js';
import { type FakeCi, startFakeCi } from './index.js';
import { type CallOptions, call, field } from './test-helpers.js';

const V3 = { accept: 'application/json', headers: { 'travis-api-version': '3' } } as const;

function v3(options: CallOptions = {}): CallOptions {
  return { ...V3, ...options, headers: { ...V3.headers, ...options.headers } };
}

function migrate(ci: FakeCi, ref: string, token?: string) {
  return call(
    ci.url,
    `/repo/${ref}/migrate`,
    v3({ method: 'POST', token, body: '', contentType: 'application/json' }),
  );
}

/** Collects the statuses the migration of `id` announces, up to `last`. */
function watchMigration(ci: FakeCi, id: number, last: string): Promise<string[]> {
  const seen: string[] = [];
  return new Promise((resolve) => {
    const onStep = (step: { repositoryId: number; status: string }) => {
      if (step.repositoryId !== id) return;
      seen.push(step.status);
      if (step.status !== last) return;
      ci.events.off('migration', onStep);
      resolve(seen);
    };
    ci.events.on('migration', onStep);
  });
}

async function migrationStatus(ci: FakeCi, id: number): Promise<unknown> {
  return field((await call(ci.url, `/repo/${id}`, v3({ token: 'token-rkh' }))).json, 'migration_status');
}

describe('fake CI: V3', () => {
  it('serves the home document listing error types', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const home = await call(ci.url, '/', v3());
    assert.equal(field(home.json, '@type'), 'home');
    assert.deepEqual(field(home.json, 'errors', 'login_required'), {
      status: 403,
      default_message: 'login required',
      additional_attributes: [],
    });
    assert.deepEqual(field(home.json, 'errors', 'not_found', 'additional_attributes'), ['resource_type']);
  });

  it('answers a repository in the standard representation, by id and by encoded slug', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const standard = fixture('travisapi_v3_repository_standard.json') as Record<string, unknown>;
    const byId = await call(ci.url, '/repo/891', v3({ token: 'token-rkh' }));
    assert.equal(byId.status, 200);
    assert.deepEqual(Object.keys(byId.json as object), Object.keys(standard));
    assert.deepEqual(
      Object.keys(field(byId.json, '@permissions') as object),
      Object.keys(standard['@permissions'] as object),
    );
    assert.equal(field(byId.json, 'slug'), 'rails/rails');
    assert.equal(field(byId.json, '@permissions', 'admin'), true);
    assert.equal(field(byId.json, 'migration_status'), null);
    const bySlug = await call(ci.url, '/repo/rails%2Frails', v3());
    assert.equal(field(bySlug.json, 'id'), 891);
    assert.equal(field(bySlug.json, '@permissions', 'admin'), false);
    const dotted = ci.state.addRepo({ slug: 'my.org/web-app_v2' });
    assert.equal(field((await call(ci.url, '/repo/my.org%2Fweb-app_v2', v3())).json, 'id'), dotted.id);
  });

  it('answers not_found for missing, invisible and unencoded-slug repositories', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const notFound = fixture('travisapi_v3_error_not_found_repository.json');
    for (const [path, token] of [
      ['/repo/1', 'token-rkh'],
      ['/repo/9001', 'token-visitor'],
      ['/repo/rkh%2Fsecret-project', undefined],
    ] as const) {
      const response = await call(ci.url, path, v3({ token }));
      assert.deepEqual([response.status, response.json], [404, notFound], path);
    }
    const raw = await call(ci.url, '/repo/rails/rails', v3());
    assert.equal(raw.status, 404);
    assert.equal(field(raw.json, 'error_type'), 'not_found');
  });

  it('needs the version header, Accept application/json and a JSON Content-Type on POST', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const withoutHeader = await call(ci.url, '/repo/891', { accept: 'application/vnd.travis-ci.2.1+json' });
    assert.equal(withoutHeader.status, 404, 'an unknown V2 route');
    assert.equal(field(withoutHeader.json, '@type'), undefined);
    const wrongAccept = await call(ci.url, '/repo/891', v3({ accept: 'application/vnd.travis-ci.2.1+json' }));
    assert.equal(wrongAccept.status, 406);
    assert.equal(field(wrongAccept.json, '@type'), 'error');
    const noType = await call(ci.url, '/repo/891/migrate', v3({ method: 'POST', token: 'token-rkh' }));
    assert.equal(noType.status, 415);
    assert.equal((await call(ci.url, '/repo/891/migrate', v3({ token: 'token-rkh' }))).status, 405);
  });

  it('answers login_required, not_found and insufficient_access on migrate', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const loginRequired = { '@type': 'error', error_type: 'login_required', error_message: 'login required' };
    for (const token of [undefined, 'bad-token']) {
      const response = await migrate(ci, '891', token);
      assert.deepEqual([response.status, response.json], [403, loginRequired]);
    }
    const missing = await migrate(ci, '4242', 'token-rkh');
    assert.deepEqual(
      [missing.status, missing.json],
      [404, fixture('travisapi_v3_error_not_found_repository.json')],
    );
    const denied = await migrate(ci, 'rails%2Frails', 'token-visitor');
    assert.equal(denied.status, 403);
    assert.deepEqual(denied.json, {
      '@type': 'error',
      error_type: 'insufficient_access',
      error_message: 'operation requires migrate access to repository',
      resource_type: 'repository',
      permission: 'migrate',
      repository: {
        '@type': 'repository',
        '@href': '/repo/891',
        '@representation': 'minimal',
        id: 891,
        name: 'rails',
        slug: 'rails/rails',
      },
    });
  });

  it('answers 202 and walks the migration plan, then refuses with repo_migrated', async (t) => {
    const ci = await startFakeCi({ migrationStepMs: 30 });
    t.after(() => ci.close());
    const steps = watchMigration(ci, 891, 'migrated');
    const accepted = await migrate(ci, 'rails%2Frails', 'token-rkh');
    assert.equal(accepted.status, 202);
    assert.equal(field(accepted.json, '@type'), 'repository');
    assert.equal(field(accepted.json, 'migration_status'), 'queued');
    assert.deepEqual(await steps, ['queued', 'migrating', 'migrated']);
    assert.equal(await migrationStatus(ci, 891), 'migrated');
    assert.equal(ci.state.getRepo(891)?.migrated, true);
    const again = await migrate(ci, '891', 'token-rkh');
    assert.deepEqual([again.status, again.json], [403, fixture('travisapi_v3_error_repo_migrated.json')]);
  });

  it('follows a custom plan ending in failure, after which a new migration may start', async (t) => {
    const ci = await startFakeCi({ deployment: 'org' });
    t.after(() => ci.close());
    const repo = ci.state.addRepo({
      slug: 'rkh/flaky',
      migrationPlan: ['queued', 'failure'],
      migrationStepMs: 10,
    });
    ci.state.grant('rkh', repo.id, 'admin');
    const failing = watchMigration(ci, repo.id, 'failure');
    assert.equal((await migrate(ci, String(repo.id), 'token-rkh')).status, 202);
    assert.deepEqual(await failing, ['queued', 'failure']);
    assert.equal(await migrationStatus(ci, repo.id), 'failure');
    assert.equal(repo.migrated, false);
    repo.migrationPlan = ['migrating', 'success'];
    const succeeding = watchMigration(ci, repo.id, 'success');
    assert.equal((await migrate(ci, String(repo.id), 'token-rkh')).status, 202);
    assert.deepEqual(await succeeding, ['migrating', 'success']);
    assert.equal(repo.active, false, 'the old deployment deactivates a migrated repository');
    const write = await call(ci.url, `/repos/${repo.id}/settings`, {
      method: 'PATCH',
      token: 'token-rkh',
      body: { settings: { build_pushes: false } },
    });
    assert.equal(field(write.json, 'error_type'), 'migrated_repository');
  });
});
