import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getBranch, getBuild, listBuilds, listRepoBuilds } from '../../src/ci/builds.js';
import type { CiError } from '../../src/ci/errors.js';
import { getJob, type JobsQuery, listJobs } from '../../src/ci/jobs.js';
import { getLog } from '../../src/ci/logs.js';
import { getV3Repository, migrateRepository } from '../../src/ci/migration.js';
import { getRepo, listRepos, type ReposQuery } from '../../src/ci/repos.js';
import { getRequest, listRequests, type RequestsQuery } from '../../src/ci/requests.js';
import { getSettings } from '../../src/ci/settings.js';
import { getUser } from '../../src/ci/users.js';
import { RAILS_BUILD, RAILS_ID, rejectsWith, type Setup, setUp } from './helpers.js';

/** Every rule refuses before anything is sent; the error names the rule. */
describe('CI client: bad_request, refused locally', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  async function refused(call: Promise<unknown>, rule: RegExp): Promise<CiError> {
    const error = await rejectsWith(call, 'bad_request');
    assert.match(error.data.rule ?? '', rule);
    assert.deepEqual(ci.take(), [], 'nothing was sent');
    return error;
  }

  it('GET /builds without ids, repository_id or slug', async () => {
    await refused(listBuilds(ci.as(), {}), /needs one of ids, repository_id or slug/);
    await refused(listBuilds(ci.as(), { ids: [] }), /needs one of ids, repository_id or slug/);
    await refused(listBuilds(ci.as(), { eventType: 'push' }), /needs one of ids, repository_id or slug/);
  });

  it('GET /builds with number or after_number but no repository', async () => {
    await refused(listBuilds(ci.as(), { ids: [RAILS_BUILD], number: '1' }), /number and after_number need/);
    await refused(
      listBuilds(ci.as(), { ids: [RAILS_BUILD], afterNumber: '9' }),
      /number and after_number need/,
    );
  });

  it('GET /jobs with none, two or three of ids, state, queue, or no ids', async () => {
    const exactlyOne = /exactly one of ids, state, queue/;
    await refused(listJobs(ci.as(), {} as JobsQuery), exactlyOne);
    await refused(listJobs(ci.as(), { ids: [1], state: 'started' } as JobsQuery), exactlyOne);
    await refused(listJobs(ci.as(), { state: 'started', queue: 'builds.linux' } as JobsQuery), exactlyOne);
    await refused(listJobs(ci.as(), { ids: [1], state: 'x', queue: 'y' } as JobsQuery), exactlyOne);
    await refused(listJobs(ci.as(), { ids: [] }), /at least one job id/);
    // A field given as undefined is not given.
    const { jobs } = await listJobs(ci.as(), { ids: undefined, state: 'failed' } as unknown as JobsQuery);
    assert.ok(jobs.length > 0);
    ci.take();
  });

  it('GET /requests with a limit above 100 (or below 1), or without exactly one repository', async () => {
    await refused(
      listRequests(ci.as(), { repositoryId: RAILS_ID, limit: 101 }),
      /limit must be between 1 and 100/,
    );
    await refused(
      listRequests(ci.as(), { slug: 'rails/rails', limit: 0 }),
      /limit must be between 1 and 100/,
    );
    await refused(
      listRequests(ci.as(), { slug: 'rails/rails', limit: 2.5 }),
      /limit must be between 1 and 100/,
    );
    await refused(listRequests(ci.as(), {} as RequestsQuery), /exactly one of repository_id or slug/);
    await refused(
      listRequests(ci.as(), { repositoryId: RAILS_ID, slug: 'rails/rails' } as RequestsQuery),
      /exactly one of repository_id or slug/,
    );
  });

  it('GET /repos with ids combined with another filter, or no ids', async () => {
    await refused(listRepos(ci.as(), { ids: [RAILS_ID], member: 'rkh' } as ReposQuery), /cannot be combined/);
    await refused(listRepos(ci.as(), { ids: [RAILS_ID], active: true } as ReposQuery), /cannot be combined/);
    await refused(listRepos(ci.as(), { ids: [] }), /at least one repository id/);
  });

  it('slugs that are not owner/name, or that URL parsing would resolve away', async () => {
    const slug = /a repository slug looks like owner\/name/;
    for (const bad of [
      'rails',
      'rails/rails/extra',
      '',
      '/rails',
      'rails/',
      'ra ils/rails',
      '../rails',
      'rails/..',
      './x',
    ]) {
      await refused(getRepo(ci.as(), bad), slug);
      await refused(getV3Repository(ci.as(), bad), slug);
    }
    await refused(migrateRepository(ci.as(), 'rails'), slug);
    await refused(listRepoBuilds(ci.as(), 'no-slash'), slug);
  });

  it('ids that are not positive whole numbers', async () => {
    for (const bad of [0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53]) {
      await refused(getBuild(ci.as(), bad), /build id must be a positive integer/);
      await refused(getJob(ci.as(), bad), /job id must be a positive integer/);
      await refused(getLog(ci.as(), bad), /log id must be a positive integer/);
      await refused(getRequest(ci.as(), bad), /request id must be a positive integer/);
      await refused(getUser(ci.as(), bad), /user id must be a positive integer/);
      await refused(getRepo(ci.as(), bad), /repository id must be a positive integer/);
      await refused(getSettings(ci.as(), bad), /repository id must be a positive integer/);
    }
    await refused(listBuilds(ci.as(), { ids: [RAILS_BUILD, -4] }), /build id must be a positive integer/);
    await refused(listBuilds(ci.as(), { repositoryId: 0 }), /repository id must be a positive integer/);
    await refused(listJobs(ci.as(), { ids: [0] }), /job id must be a positive integer/);
    await refused(listRepos(ci.as(), { ids: [1.5] }), /repository id must be a positive integer/);
    await refused(listRequests(ci.as(), { repositoryId: -1 }), /repository id must be a positive integer/);
    await refused(
      listRequests(ci.as(), { slug: 'rails/rails', olderThan: 0 }),
      /older_than must be a positive/,
    );
  });

  it('a branch name that is empty or a dot segment', async () => {
    for (const bad of ['', '.', '..'])
      await refused(getBranch(ci.as(), RAILS_ID, bad), /a branch name cannot be/);
  });

  it('a deployment that is not configured', () => {
    assert.throws(
      () => ci.client.session('enterprise', 'token'),
      (error: CiError) => error.code === 'bad_request' && error.data.rule === 'deployment',
    );
  });
});
