import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { isCiError } from '../../src/ci/errors.js';
import { controlTarget, describeTarget, resolveTarget } from '../../src/ops/build-control.js';
import { BUILDS_PER_PAGE, listBuildPage, MAX_PAGES_PER_SCAN, repoStatus } from '../../src/ops/builds.js';
import { UserFacingError } from '../../src/ops/describe-error.js';
import { findJobs } from '../../src/ops/jobs.js';
import type { RepoRef } from '../../src/ops/references.js';
import { type OpsWorld, startOpsWorld } from '../helpers/ops-world.js';

const slugRef = (slug: string): RepoRef => {
  const [owner = '', name = ''] = slug.split('/');
  return { kind: 'slug', owner, name, slug };
};

describe('build use cases', () => {
  let w: OpsWorld;
  before(async () => {
    w = await startOpsWorld();
    // octo/paged: 60 builds; every third one on the branch `feature`, builds 50–60 pull requests.
    w.ci.state.addRepo({ slug: 'octo/paged', id: 5001 });
    w.ci.state.grant('rkh', 5001, 'admin');
    for (let n = 1; n <= 60; n++) {
      w.ci.state.addBuild(5001, {
        number: n,
        state: 'passed',
        branch: n % 3 === 0 ? 'feature' : 'main',
        eventType: n >= 50 ? 'pull_request' : 'push',
        pullRequestNumber: n,
        message: `Change ${n}\n\nLonger body`,
        jobs: 1,
      });
    }
    // octo/sparse: one `rare` build under 120 builds of main, beyond one scan.
    w.ci.state.addRepo({ slug: 'octo/sparse', id: 5002 });
    w.ci.state.addBuild(5002, { number: 1, state: 'passed', branch: 'rare' });
    for (let n = 2; n <= 121; n++) w.ci.state.addBuild(5002, { number: n, state: 'passed', branch: 'main' });
  });
  after(() => w.close());

  it('lists the newest builds with their commits joined by commit_id, and where the next page starts', async () => {
    const page = await listBuildPage(w.as('rkh'), slugRef('octo/paged'));
    assert.equal(page.repo.id, 5001);
    assert.equal(page.entries.length, BUILDS_PER_PAGE);
    assert.equal(page.entries[0]?.build.number, '60');
    for (const entry of page.entries) {
      assert.equal(entry.commit?.id, entry.build.commit_id);
      assert.equal(entry.commit?.message?.split('\n')[0], `Change ${entry.build.number}`);
    }
    assert.equal(page.nextAfterNumber, String(60 - BUILDS_PER_PAGE + 1));

    const older = await listBuildPage(w.as('rkh'), slugRef('octo/paged'), {}, page.nextAfterNumber);
    assert.equal(older.entries[0]?.build.number, String(60 - BUILDS_PER_PAGE));
    const request = w.ci.requests.findLast((r) => r.path === '/repos/octo/paged/builds');
    assert.equal(request?.query.get('after_number'), page.nextAfterNumber);
  });

  it('has no next page after the last build', async () => {
    const page = await listBuildPage(w.as('rkh'), { kind: 'id', id: 5001 }, {}, '5');
    assert.deepEqual(
      page.entries.map((e) => e.build.number),
      ['4', '3', '2', '1'],
    );
    assert.equal(page.nextAfterNumber, undefined);
  });

  it('filters by event type on the service, and by branch over several pages', async () => {
    const prs = await listBuildPage(w.as('rkh'), slugRef('octo/paged'), { event: 'pull_request' });
    assert.equal(prs.entries.length, 11);
    assert.ok(prs.entries.every((e) => e.build.event_type === 'pull_request'));
    assert.equal(
      w.ci.requests.findLast((r) => r.path.endsWith('/builds'))?.query.get('event_type'),
      'pull_request',
    );

    const feature = await listBuildPage(w.as('rkh'), slugRef('octo/paged'), { branch: 'feature' });
    assert.equal(feature.entries.length, BUILDS_PER_PAGE);
    assert.ok(feature.entries.every((e) => e.commit?.branch === 'feature'));
    assert.equal(feature.entries.at(-1)?.build.number, '3');
    assert.equal(feature.nextAfterNumber, '3');
  });

  it('stops a branch scan after a few pages and says where to go on', async () => {
    const page = await listBuildPage(w.as('rkh'), slugRef('octo/sparse'), { branch: 'rare' });
    assert.equal(page.entries.length, 0);
    assert.equal(page.scanLimited, true);
    assert.equal(page.nextAfterNumber, String(121 - 25 * MAX_PAGES_PER_SCAN + 1));
    const rest = await listBuildPage(
      w.as('rkh'),
      slugRef('octo/sparse'),
      { branch: 'rare' },
      page.nextAfterNumber,
    );
    assert.deepEqual(
      rest.entries.map((e) => e.build.number),
      ['1'],
    );
  });

  it('gives the status of a repository from its last build', async () => {
    const status = await repoStatus(w.as('rkh'), slugRef('rails/rails'));
    assert.equal(status.lastBuild?.id, 4125095);
    assert.equal(status.lastBuild?.state, 'failed');
    w.ci.state.addRepo({ slug: 'octo/empty' });
    assert.equal((await repoStatus(w.as('rkh'), slugRef('octo/empty'))).lastBuild, undefined);
  });

  it('resolves builds and jobs by number and names them', async () => {
    const build = await resolveTarget(w.as('rkh'), {
      type: 'build',
      ref: { kind: 'number', repo: slugRef('rails/rails'), number: '6180' },
    });
    assert.equal(describeTarget(build), 'build #6180 of rails/rails');
    const job = await resolveTarget(w.as('rkh'), {
      type: 'job',
      ref: { kind: 'number', repo: slugRef('rails/rails'), number: '6180.2' },
    });
    assert.deepEqual(
      [job.id, job.buildId, describeTarget(job)],
      [4125097, 4125095, 'job #6180.2 of rails/rails'],
    );
  });

  it('restarts and cancels, and turns refusals for the wrong state into sentences', async () => {
    const running = w.ci.state.addBuild(891, { state: 'started', jobs: 2 });
    const target = await resolveTarget(w.as('rkh'), { type: 'build', ref: { kind: 'id', id: running.id } });
    await assert.rejects(
      controlTarget(w.as('rkh'), 'restart', target),
      (error: unknown) =>
        error instanceof UserFacingError &&
        /^Build #\d+ of rails\/rails is still running/.test(error.message),
    );
    await controlTarget(w.as('rkh'), 'cancel', target);
    assert.equal(w.ci.state.getBuild(running.id)?.state, 'canceled');
    await assert.rejects(controlTarget(w.as('rkh'), 'cancel', target), {
      message: `Build #${running.number} of rails/rails already finished; nothing to cancel.`,
    });
    await controlTarget(w.as('rkh'), 'restart', target);
    assert.equal(w.ci.state.getBuild(running.id)?.state, 'created');
  });

  it('lets the service refuse someone without push access', async () => {
    const target = await resolveTarget(w.as('visitor'), { type: 'build', ref: { kind: 'id', id: 4125095 } });
    await assert.rejects(controlTarget(w.as('visitor'), 'restart', target), (error: unknown) =>
      isCiError(error, 'insufficient_access'),
    );
    assert.equal(w.ci.state.getBuild(4125095)?.state, 'failed');
  });

  it('finds jobs by state, with their commits, and notices the service limit', async () => {
    const list = await findJobs(w.as('rkh'), { state: 'created' });
    assert.ok(list.entries.length > 0);
    assert.ok(list.entries.every((e) => e.job.state === 'created' && e.commit?.id === e.job.commit_id));
    assert.equal(list.atServiceLimit, false);
  });
});
