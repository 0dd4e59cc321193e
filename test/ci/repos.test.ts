import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  getRepo,
  getRepoKey,
  listHooks,
  listRepos,
  regenerateRepoKey,
  setHook,
  setHookById,
} from '../../src/ci/repos.js';
import { lines, only, RAILS_ID, rejectsWith, SECRET_REPO_ID, type Setup, setUp } from './helpers.js';

const DOTTED = 'my-org.io/some_repo.js';

describe('CI client: repositories, hooks and keys (4.8, 4.12, 4.13)', () => {
  let ci: Setup;
  let dottedId: number;
  before(async () => {
    ci = await setUp();
    dottedId = ci.fake.state.addRepo({ slug: DOTTED, description: 'dots, dashes and underscores' }).id;
    ci.fake.state.grant('rkh', dottedId, 'admin');
    ci.fake.state.addBuild(dottedId, { state: 'passed' });
    ci.take();
  });
  after(() => ci.close());

  it('GET /repos/{id} and /repos/{owner}/{name}, including a slug with dots, dashes and underscores', async () => {
    assert.equal((await getRepo(ci.as(null), RAILS_ID)).slug, 'rails/rails');
    assert.equal((await getRepo(ci.as(null), 'rails/rails')).id, RAILS_ID);
    assert.equal((await getRepo(ci.as(null), DOTTED)).id, dottedId);
    assert.deepEqual(lines(ci.take()), [
      `GET /repos/${RAILS_ID}`,
      'GET /repos/rails/rails',
      `GET /repos/${DOTTED}`,
    ]);
  });

  it('GET /repos with ids alone', async () => {
    const repos = await listRepos(ci.as(), { ids: [RAILS_ID, SECRET_REPO_ID] });
    assert.deepEqual(
      repos.map((r) => r.id),
      [RAILS_ID, SECRET_REPO_ID],
    );
    assert.deepEqual(lines(ci.take()), [`GET /repos?ids[]=${RAILS_ID}&ids[]=${SECRET_REPO_ID}`]);
  });

  it('GET /repos with member, owner_name, slug, search and active', async () => {
    const mine = await listRepos(ci.as(), { member: 'rkh', ownerName: 'rkh' });
    assert.deepEqual(
      mine.map((r) => r.slug),
      ['rkh/secret-project'],
    );
    assert.deepEqual(
      (await listRepos(ci.as(null), { slug: DOTTED })).map((r) => r.id),
      [dottedId],
    );
    assert.deepEqual(
      (await listRepos(ci.as(null), { search: 'underscores', active: true })).map((r) => r.id),
      [dottedId],
    );
    assert.deepEqual(lines(ci.take()), [
      'GET /repos?member=rkh&owner_name=rkh',
      `GET /repos?slug=${DOTTED}`,
      'GET /repos?search=underscores&active=true',
    ]);
  });

  it('GET /repos without parameters: repositories with recent activity', async () => {
    const recent = await listRepos(ci.as(null));
    assert.ok(recent.some((r) => r.id === dottedId));
    assert.deepEqual(lines(ci.take()), ['GET /repos']);
  });

  it('GET /hooks, PUT /hooks {hook: {id, active}} and PUT /hooks/{id} {hook: {active}}', async () => {
    const hooks = await listHooks(ci.as());
    assert.deepEqual(
      hooks.map((h) => [h.id, h.active]),
      [
        [dottedId, true],
        [RAILS_ID, true],
        [SECRET_REPO_ID, true],
      ],
    );
    await setHook(ci.as(), dottedId, false);
    assert.equal(ci.fake.state.getRepo(dottedId)?.active, false);
    await setHookById(ci.as(), dottedId, true);
    assert.equal(ci.fake.state.getRepo(dottedId)?.active, true);
    const [, put, putById] = ci.take();
    assert.equal(put?.method, 'PUT');
    assert.equal(put?.path, '/hooks');
    assert.deepEqual(JSON.parse(put?.body ?? ''), { hook: { id: dottedId, active: false } });
    assert.equal(putById?.path, `/hooks/${dottedId}`);
    assert.deepEqual(JSON.parse(putById?.body ?? ''), { hook: { active: true } });
  });

  it('GET /repos/{repo}/key by id and slug; POST makes a new key', async () => {
    const byId = await getRepoKey(ci.as(null), RAILS_ID);
    assert.match(byId.key, /BEGIN (RSA )?PUBLIC KEY/);
    assert.equal(byId.fingerprint, 'foobar');
    assert.deepEqual(await getRepoKey(ci.as(null), 'rails/rails'), byId);
    const fresh = await regenerateRepoKey(ci.as(), DOTTED);
    assert.notEqual(fresh.key, byId.key);
    assert.deepEqual(await getRepoKey(ci.as(null), dottedId), fresh);
    assert.deepEqual(lines(ci.take()), [
      `GET /repos/${RAILS_ID}/key`,
      'GET /repos/rails/rails/key',
      `POST /repos/${DOTTED}/key`,
      `GET /repos/${dottedId}/key`,
    ]);
  });

  it('regenerating a key is never retried and needs a token', async () => {
    ci.fake.fault({ method: 'POST', path: `/repos/${RAILS_ID}/key` }, { status: 502, times: 1 });
    await rejectsWith(regenerateRepoKey(ci.as(), RAILS_ID), 'unavailable');
    only(ci.take());
    await rejectsWith(regenerateRepoKey(ci.as(null), RAILS_ID), 'unauthenticated');
    assert.deepEqual(ci.take(), []);
  });
});
