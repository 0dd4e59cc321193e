import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getJob, listJobs } from '../../src/ci/jobs.js';
import { FAILED_JOB, lines, RAILS_ID, type Setup, setUp } from './helpers.js';

describe('CI client: jobs (4.9)', () => {
  let ci: Setup;
  let queuedJob: number;
  before(async () => {
    ci = await setUp();
    const build = ci.fake.state.addBuild(RAILS_ID, {
      state: 'queued',
      jobs: [{ queue: 'builds.gce' }, { queue: 'builds.linux' }],
    });
    queuedJob = build.jobIds[0] ?? 0;
    ci.take();
  });
  after(() => ci.close());

  it('GET /jobs/{id} with its commit', async () => {
    const { job, commit } = await getJob(ci.as(null), FAILED_JOB);
    assert.equal(job.id, FAILED_JOB);
    assert.equal(job.state, 'failed');
    assert.equal(job.number, '6180.1');
    assert.equal(job.repository_slug, 'rails/rails');
    assert.equal(commit?.id, 1201631);
    assert.deepEqual(lines(ci.take()), [`GET /jobs/${FAILED_JOB}`]);
  });

  it('GET /jobs?ids[]=…', async () => {
    const { jobs, commits } = await listJobs(ci.as(null), { ids: [FAILED_JOB, 4125097] });
    assert.deepEqual(
      jobs.map((j) => [j.id, j.state]),
      [
        [FAILED_JOB, 'failed'],
        [4125097, 'passed'],
      ],
    );
    assert.equal(commits.length, 1);
    assert.deepEqual(lines(ci.take()), [`GET /jobs?ids[]=${FAILED_JOB}&ids[]=4125097`]);
  });

  it('GET /jobs?state=… and GET /jobs?queue=…', async () => {
    const queued = await listJobs(ci.as(null), { state: 'queued' });
    assert.equal(queued.jobs.length, 2);
    assert.ok(queued.jobs.every((j) => j.state === 'queued'));
    const gce = await listJobs(ci.as(null), { queue: 'builds.gce' });
    assert.deepEqual(
      gce.jobs.map((j) => j.id),
      [queuedJob],
    );
    assert.deepEqual(lines(ci.take()), ['GET /jobs?state=queued', 'GET /jobs?queue=builds.gce']);
  });
});
