import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getBranch, getBuild, listBranches, listBuilds, listRepoBuilds } from '../../src/ci/builds.js';
import { lines, RAILS_BUILD, RAILS_ID, rejectsWith, type Setup, setUp } from './helpers.js';

describe('CI client: builds and branches (4.4, 4.6)', () => {
  let ci: Setup;
  let prBuild: number;
  let featureBuild: number;
  before(async () => {
    ci = await setUp();
    featureBuild = ci.fake.state.addBuild(RAILS_ID, {
      branch: 'feature/fast',
      state: 'passed',
      number: 6181,
    }).id;
    prBuild = ci.fake.state.addBuild(RAILS_ID, {
      eventType: 'pull_request',
      pullRequestNumber: 42,
      pullRequestTitle: 'Make it fast',
      state: 'started',
      number: 6182,
    }).id;
    ci.take();
  });
  after(() => ci.close());

  it('GET /builds by ids, with the jobs and commits sideloaded', async () => {
    const list = await listBuilds(ci.as(null), { ids: [RAILS_BUILD, featureBuild] });
    assert.deepEqual(
      list.builds.map((b) => b.id),
      [RAILS_BUILD, featureBuild],
    );
    assert.equal(list.jobs.length, 13);
    assert.equal(list.commits.length, 2);
    assert.deepEqual(lines(ci.take()), [`GET /builds?ids[]=${RAILS_BUILD}&ids[]=${featureBuild}`]);
  });

  it('GET /builds by repository_id and by slug, with number, after_number and event_type', async () => {
    const byId = await listBuilds(ci.as(null), { repositoryId: RAILS_ID, eventType: 'pull_request' });
    assert.deepEqual(
      byId.builds.map((b) => b.id),
      [prBuild],
    );
    assert.equal(byId.builds[0]?.pull_request_number, '42');
    const bySlug = await listBuilds(ci.as(null), { slug: 'rails/rails', number: '6180' });
    assert.deepEqual(
      bySlug.builds.map((b) => b.id),
      [RAILS_BUILD],
    );
    const page = await listBuilds(ci.as(null), { repositoryId: RAILS_ID, afterNumber: '6182' });
    assert.deepEqual(
      page.builds.map((b) => b.number),
      ['6181', '6180'],
    );
    assert.deepEqual(lines(ci.take()), [
      `GET /builds?repository_id=${RAILS_ID}&event_type=pull_request`,
      'GET /builds?slug=rails/rails&number=6180',
      `GET /builds?repository_id=${RAILS_ID}&after_number=6182`,
    ]);
  });

  it('GET /repos/{id}/builds and /repos/{owner}/{name}/builds with the slash kept', async () => {
    const byId = await listRepoBuilds(ci.as(null), RAILS_ID, { eventType: 'push' });
    assert.deepEqual(
      byId.builds.map((b) => b.id),
      [featureBuild, RAILS_BUILD],
    );
    const bySlug = await listRepoBuilds(ci.as(null), 'rails/rails', { number: '6181' });
    assert.deepEqual(
      bySlug.builds.map((b) => b.id),
      [featureBuild],
    );
    const older = await listRepoBuilds(ci.as(null), 'rails/rails', { afterNumber: '6181' });
    assert.deepEqual(
      older.builds.map((b) => b.id),
      [RAILS_BUILD],
    );
    assert.deepEqual(lines(ci.take()), [
      `GET /repos/${RAILS_ID}/builds?event_type=push`,
      'GET /repos/rails/rails/builds?number=6181',
      'GET /repos/rails/rails/builds?after_number=6181',
    ]);
  });

  it('GET /builds/{id}, /repos/{id}/builds/{id} and /repos/{slug}/builds/{id}', async () => {
    for (const repo of [undefined, RAILS_ID, 'rails/rails']) {
      const detail = await getBuild(ci.as(null), RAILS_BUILD, repo === undefined ? {} : { repo });
      assert.equal(detail.build.id, RAILS_BUILD);
      assert.equal(detail.build.number, '6180');
      assert.equal(detail.commit?.id, 1201631);
      assert.equal(detail.jobs.length, 12);
    }
    assert.deepEqual(lines(ci.take()), [
      `GET /builds/${RAILS_BUILD}`,
      `GET /repos/${RAILS_ID}/builds/${RAILS_BUILD}`,
      `GET /repos/rails/rails/builds/${RAILS_BUILD}`,
    ]);
  });

  it('a build asked for through another repository is not found', async () => {
    await rejectsWith(getBuild(ci.as(null), RAILS_BUILD, { repo: 'pypug/django-mango' }), 'not_found');
    ci.take();
  });

  it('GET /repos/{repo}/branches by id and slug: the latest build per branch, pull requests left out', async () => {
    for (const repo of [RAILS_ID, 'rails/rails']) {
      const { branches, commits } = await listBranches(ci.as(null), repo);
      assert.deepEqual(
        branches.map((b) => b.id),
        [featureBuild, RAILS_BUILD],
      );
      assert.deepEqual(commits.map((c) => c.branch).sort(), ['feature/fast', 'master']);
    }
    assert.deepEqual(lines(ci.take()), [
      `GET /repos/${RAILS_ID}/branches`,
      'GET /repos/rails/rails/branches',
    ]);
  });

  it('GET /repos/{repo}/branches/{branch} by id and slug, a slash in the branch encoded', async () => {
    const master = await getBranch(ci.as(null), RAILS_ID, 'master');
    assert.equal(master.branch.id, RAILS_BUILD);
    const feature = await getBranch(ci.as(null), 'rails/rails', 'feature/fast');
    assert.equal(feature.branch.id, featureBuild);
    assert.equal(feature.commit?.branch, 'feature/fast');
    assert.deepEqual(
      ci.take().map((r) => r.path),
      [`/repos/${RAILS_ID}/branches/master`, '/repos/rails/rails/branches/feature%2Ffast'],
    );
  });
});
