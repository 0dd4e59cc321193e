import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { fixture } from './fixtures.js';
import { type PusherMessage, startFakeCi } from './index.js';
import { call, field } from './test-helpers.js';

type Obj = Record<string, unknown>;

function list(json: unknown, key: string): Obj[] {
  return field(json, key) as Obj[];
}

describe('fake CI: builds and branches', () => {
  it('answers the build fixture (plus event_type) by id, with or without repository', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const expected = fixture('travisrb_v2_build_4125095_with_jobs.json') as Obj;
    for (const path of [
      '/builds/4125095',
      '/repos/891/builds/4125095',
      '/repos/rails/rails/builds/4125095',
    ]) {
      const response = await call(ci.url, path);
      const { event_type, ...build } = field(response.json, 'build') as Obj;
      assert.equal(event_type, 'push');
      assert.deepEqual(build, expected.build, path);
      assert.deepEqual(field(response.json, 'commit'), expected.commit);
      const jobs = list(response.json, 'jobs');
      assert.equal(jobs.length, 12);
      assert.deepEqual(jobs[2], (expected.jobs as Obj[])[2]);
    }
    assert.equal((await call(ci.url, '/repos/107495/builds/4125095')).status, 404);
  });

  it('needs ids, repository_id or slug on GET /builds, and a repository for number and after_number', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const bare = await call(ci.url, '/builds');
    assert.equal(bare.status, 400);
    assert.equal(field(bare.json, 'error_type'), 'missing_parameters');
    assert.equal((await call(ci.url, '/builds?number=6180')).status, 400);
    assert.equal((await call(ci.url, '/builds?after_number=6180')).status, 400);
    const bySlug = await call(ci.url, '/builds?slug=rails/rails&number=6180');
    assert.deepEqual(
      list(bySlug.json, 'builds').map((b) => b.id),
      [4125095],
    );
    assert.deepEqual(Object.keys(bySlug.json as Obj), ['builds', 'jobs', 'commits']);
    assert.equal((await call(ci.url, '/builds?repository_id=891')).status, 200);
  });

  it('pages builds 25 at a time, newest first, with after_number and event_type', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const repo = ci.state.addRepo({ slug: 'acme/busy' });
    for (let i = 1; i <= 30; i += 1) {
      ci.state.addBuild(repo, { state: 'passed', eventType: i % 10 === 0 ? 'pull_request' : 'push' });
    }
    const first = list((await call(ci.url, '/repos/acme/busy/builds')).json, 'builds');
    assert.equal(first.length, 25);
    assert.deepEqual(
      first.slice(0, 3).map((b) => b.number),
      ['30', '29', '28'],
    );
    const rest = list((await call(ci.url, `/repos/${repo.id}/builds?after_number=6`)).json, 'builds');
    assert.deepEqual(
      rest.map((b) => b.number),
      ['5', '4', '3', '2', '1'],
    );
    const prs = list((await call(ci.url, '/builds?slug=acme/busy&event_type=pull_request')).json, 'builds');
    assert.deepEqual(
      prs.map((b) => [b.number, b.pull_request, b.pull_request_number]),
      [
        ['30', true, 1],
        ['20', true, 1],
        ['10', true, 1],
      ],
    );
  });

  it('lists the latest build of each branch, pull requests left out', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const repo = ci.state.addRepo({ slug: 'acme/branches' });
    ci.state.addBuild(repo, { branch: 'master', state: 'failed' });
    const newest = ci.state.addBuild(repo, { branch: 'master', state: 'passed' });
    const feature = ci.state.addBuild(repo, { branch: 'feature/x', state: 'started' });
    ci.state.addBuild(repo, { branch: 'feature/x', eventType: 'pull_request' });
    for (let i = 0; i < 30; i += 1) ci.state.addBuild(repo, { branch: `topic-${i}` });
    const branches = await call(ci.url, '/repos/acme/branches/branches');
    assert.equal(list(branches.json, 'branches').length, 25);
    const one = await call(ci.url, '/repos/acme/branches/branches/master');
    assert.equal(field(one.json, 'branch', 'id'), newest.id);
    assert.equal(field(one.json, 'commit', 'branch'), 'master');
    const slashed = await call(ci.url, `/repos/${repo.id}/branches/feature%2Fx`);
    assert.equal(field(slashed.json, 'branch', 'id'), feature.id);
    assert.equal((await call(ci.url, '/repos/acme/branches/branches/nope')).status, 404);
  });

  it('cancels a running build and its unfinished jobs: 204, then 422 once finished', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const build = ci.state.addBuild('rails/rails', {
      state: 'started',
      jobs: [{ state: 'passed' }, { state: 'started' }, { state: 'queued' }],
    });
    const events: PusherMessage[] = [];
    ci.events.on('pusher', (message: PusherMessage) => events.push(message));
    const cancel = await call(ci.url, `/builds/${build.id}/cancel`, { method: 'POST', token: 'token-rkh' });
    assert.equal(cancel.status, 204);
    assert.equal(cancel.text, '');
    assert.equal(ci.state.getBuild(build.id)?.state, 'canceled');
    assert.ok(ci.state.getBuild(build.id)?.finishedAt);
    assert.deepEqual(
      ci.state.jobsOf(build).map((j) => j.state),
      ['passed', 'canceled', 'canceled'],
    );
    assert.deepEqual(
      events.filter((e) => e.channel === 'repo-891').map((e) => e.event),
      ['job:canceled', 'job:canceled', 'build:canceled'],
    );
    const again = await call(ci.url, `/builds/${build.id}/cancel`, { method: 'POST', token: 'token-rkh' });
    assert.equal(again.status, 422);
    assert.deepEqual(again.json, {
      error: { message: `The build(${build.id}) can't be canceled`, code: 'cant_cancel' },
    });
    assert.equal(
      (await call(ci.url, '/builds/1/cancel', { method: 'POST', token: 'token-rkh' })).status,
      404,
    );
  });

  it('restarts a finished build: 202, state created, times cleared; 400 while it runs', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const restart = await call(ci.url, '/builds/4125095/restart', { method: 'POST', token: 'token-rkh' });
    assert.equal(restart.status, 202);
    assert.deepEqual(restart.json, {
      result: true,
      flash: [{ notice: 'The build was successfully restarted.' }],
    });
    const build = ci.state.getBuild(4125095);
    assert.equal(build?.state, 'created');
    assert.equal(build?.finishedAt, null);
    assert.ok(build && ci.state.jobsOf(build).every((j) => j.state === 'created' && j.finishedAt === null));
    assert.equal(ci.state.getLog(4125096)?.parts.length, 0, 'the old log is gone');
    const running = await call(ci.url, '/builds/4125095/restart', { method: 'POST', token: 'token-rkh' });
    assert.equal(running.status, 400);
    assert.deepEqual(running.json, {
      result: false,
      flash: [{ error: 'This build currently can not be restarted.' }],
    });
    const repo = await call(ci.url, '/repos/891');
    assert.equal(field(repo.json, 'repo', 'last_build_state'), 'created');
  });

  it('cancels and restarts single jobs; the build finishes when its last job does', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const build = ci.state.addBuild('rails/rails', {
      state: 'started',
      jobs: [{ state: 'passed' }, { state: 'started' }],
    });
    const [done, running] = build.jobIds;
    const cancel = await call(ci.url, `/jobs/${running}/cancel`, { method: 'POST', token: 'token-rkh' });
    assert.equal(cancel.status, 204);
    assert.equal(ci.state.getBuild(build.id)?.state, 'canceled');
    const refused = await call(ci.url, `/jobs/${running}/cancel`, { method: 'POST', token: 'token-rkh' });
    assert.equal(refused.status, 422);
    const restart = await call(ci.url, `/jobs/${done}/restart`, { method: 'POST', token: 'token-rkh' });
    assert.deepEqual(
      [restart.status, restart.json],
      [202, { result: true, flash: [{ notice: 'The job was successfully restarted.' }] }],
    );
    assert.equal(ci.state.getJob(Number(done))?.state, 'created');
    assert.equal(ci.state.getBuild(build.id)?.state, 'created');
    const visitor = await call(ci.url, `/jobs/${done}/restart`, { method: 'POST', token: 'token-visitor' });
    assert.equal(visitor.status, 403);
  });
});
