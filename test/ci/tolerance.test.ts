import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getBuild, listBuilds } from '../../src/ci/builds.js';
import { getJob } from '../../src/ci/jobs.js';
import { getV3Repository } from '../../src/ci/migration.js';
import { getRepo, listRepos } from '../../src/ci/repos.js';
import { FAILED_JOB, RAILS_BUILD, RAILS_ID, SECRET_REPO_ID, type Setup, setUp } from './helpers.js';

/** The schemas follow the spec but accept what the real service sends (schemas.ts). */
describe('CI client: tolerant answers', () => {
  let ci: Setup;
  let oddBuild: number;
  let oddJob: number;
  before(async () => {
    ci = await setUp();
    const build = ci.fake.state.addBuild(RAILS_ID, {
      state: 'hibernating',
      jobs: [{ state: 'daydreaming' }],
    });
    oddBuild = build.id;
    oddJob = build.jobIds[0] ?? 0;
    ci.fake.state.addRepo({ slug: 'flags/on', id: 7001, active: true, activeField: 'boolean' });
    ci.fake.state.addRepo({ slug: 'flags/off', id: 7002, active: false, activeField: 'string' });
  });
  after(() => ci.close());

  it('keeps fields the spec does not list', async () => {
    const repo = await getRepo(ci.as(), RAILS_ID);
    assert.equal(repo.github_language, 'Ruby');
    assert.equal(repo.last_build_language, null);
    const { job } = await getJob(ci.as(), FAILED_JOB);
    assert.equal(typeof job.tags, 'string');
    const { build } = await getBuild(ci.as(), oddBuild);
    assert.equal(build.event_type, 'push');
  });

  it('accepts null timestamps', async () => {
    const { build } = await getBuild(ci.as(), RAILS_BUILD);
    assert.equal(build.finished_at, null);
    const fresh = await getRepo(ci.as(), 'flags/on');
    assert.equal(fresh.last_build_started_at, null);
    assert.equal(fresh.last_build_id, null);
  });

  it('reads active as a boolean, as a string, or not at all', async () => {
    const active = async (ref: number | string) => (await getRepo(ci.as(), ref)).active;
    assert.equal(await active('flags/on'), true);
    assert.equal(await active('flags/off'), false);
    assert.equal(await active(SECRET_REPO_ID), true, 'the string "true"');
    assert.equal(await active(RAILS_ID), undefined, 'absent');
    const [listed] = await listRepos(ci.as(), { ids: [SECRET_REPO_ID] });
    assert.equal(listed?.active, true);
  });

  it('keeps a state it does not know as the string the service sent', async () => {
    const { build, jobs } = await getBuild(ci.as(), oddBuild);
    assert.equal(build.state, 'hibernating');
    assert.equal(jobs[0]?.state, 'daydreaming');
    const list = await listBuilds(ci.as(), { ids: [oddBuild] });
    assert.equal(list.builds[0]?.state, 'hibernating');
    assert.equal((await getJob(ci.as(), oddJob)).job.state, 'daydreaming');
  });

  it('keeps the V3 @ metadata', async () => {
    const repo = await getV3Repository(ci.as(), RAILS_ID);
    assert.equal(repo['@type'], 'repository');
    assert.equal(repo['@href'], `/repo/${RAILS_ID}`);
    assert.equal(repo['@representation'], 'standard');
    assert.equal(repo['@permissions']?.admin, true);
    assert.equal(repo['@permissions']?.build_restart, true);
    assert.deepEqual(repo.owner, {
      id: 9200,
      login: 'rails',
      '@type': 'organization',
      ro_mode: true,
      '@href': '/org/9200',
    });
  });

  it('accepts numbers where the spec has strings, absent optional fields and a null commit', async () => {
    const body = JSON.stringify({
      build: { id: 1, repository_id: 2, number: 77, state: 'passed', pull_request_number: 5 },
      commit: null,
      jobs: [{ id: 3, build_id: 1, repository_id: 2, number: 77.1, state: 'passed' }],
    });
    ci.fake.fault({ path: '/builds/1' }, { status: 200, body, times: 1 });
    const { build, jobs, commit } = await getBuild(ci.as(), 1);
    assert.equal(build.number, '77');
    assert.equal(build.pull_request_number, '5');
    assert.deepEqual(build.job_ids, []);
    assert.equal(jobs[0]?.number, '77.1');
    assert.equal(jobs[0]?.allow_failure, false);
    assert.equal(commit, undefined);
  });
});
