import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { cancelBuild, restartBuild } from '../../src/ci/builds.js';
import { cancelJob, restartJob } from '../../src/ci/jobs.js';
import {
  lines,
  only,
  RAILS_BUILD,
  RAILS_ID,
  rejectsWith,
  type Setup,
  setUp,
  VISITOR_TOKEN,
} from './helpers.js';

/** Cancel and restart as the real service answers them (test/fakes/ci/README.md, "Status codes"). */
describe('CI client: cancel and restart of builds and jobs (4.6, 4.9)', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  const running = () => ci.fake.state.addBuild(RAILS_ID, { state: 'started', jobs: 2 });

  it('cancels a running build: 204 without a body', async () => {
    const build = running();
    ci.take();
    await cancelBuild(ci.as(), build.id);
    assert.deepEqual(lines(ci.take()), [`POST /builds/${build.id}/cancel`]);
    assert.equal(ci.fake.state.getBuild(build.id)?.state, 'canceled');
  });

  it('restarts a finished build: 202 with a notice', async () => {
    await restartBuild(ci.as(), RAILS_BUILD);
    assert.deepEqual(lines(ci.take()), [`POST /builds/${RAILS_BUILD}/restart`]);
    assert.equal(ci.fake.state.getBuild(RAILS_BUILD)?.state, 'created');
  });

  it('cancelling a finished build is rejected (422 cant_cancel) with the service message', async () => {
    const build = ci.fake.state.addBuild(RAILS_ID, { state: 'passed' });
    const error = await rejectsWith(cancelBuild(ci.as(), build.id), 'rejected');
    assert.equal(error.data.status, 422);
    assert.equal(error.data.errorType, 'cant_cancel');
    assert.equal(error.data.serviceMessage, `The build(${build.id}) can't be canceled`);
    assert.match(error.message, /can't be canceled/);
  });

  it('restarting a running build is rejected (400 with flash error) with the service message', async () => {
    const build = running();
    const error = await rejectsWith(restartBuild(ci.as(), build.id), 'rejected');
    assert.equal(error.data.status, 400);
    assert.equal(error.data.serviceMessage, 'This build currently can not be restarted.');
    assert.match(error.message, /can not be restarted/);
  });

  it('without push access, cancel and restart are insufficient_access with the service message', async () => {
    const build = running();
    const visitor = ci.as(VISITOR_TOKEN);
    const cancel = await rejectsWith(cancelBuild(visitor, build.id), 'insufficient_access');
    assert.equal(cancel.data.status, 403);
    assert.equal(cancel.data.serviceMessage, `You don't have access to cancel build(${build.id})`);
    const restart = await rejectsWith(restartBuild(visitor, RAILS_BUILD), 'insufficient_access');
    assert.equal(restart.data.serviceMessage, 'You do not seem to have sufficient permissions.');
  });

  it('cancels a running job (204) and restarts a finished one (202)', async () => {
    const build = running();
    const [first, second] = build.jobIds;
    assert.ok(first && second);
    ci.take();
    await cancelJob(ci.as(), first);
    assert.equal(ci.fake.state.getJob(first)?.state, 'canceled');
    await restartJob(ci.as(), first);
    assert.equal(ci.fake.state.getJob(first)?.state, 'created');
    assert.deepEqual(lines(ci.take()), [`POST /jobs/${first}/cancel`, `POST /jobs/${first}/restart`]);
  });

  it('job cancel of a finished job (422) and restart of a running one (400) carry the service message', async () => {
    const build = running();
    const [job] = build.jobIds;
    assert.ok(job);
    ci.fake.state.updateJob(job, { state: 'passed' });
    const cancel = await rejectsWith(cancelJob(ci.as(), job), 'rejected');
    assert.equal(cancel.data.errorType, 'cant_cancel');
    assert.equal(cancel.data.serviceMessage, `The job(${job}) can't be canceled`);
    const [other] = running().jobIds;
    assert.ok(other);
    const restart = await rejectsWith(restartJob(ci.as(), other), 'rejected');
    assert.equal(restart.data.status, 400);
    assert.equal(restart.data.serviceMessage, 'This job currently can not be restarted.');
  });

  it('needs a token: refused before sending', async () => {
    ci.take();
    await rejectsWith(cancelBuild(ci.as(null), RAILS_BUILD), 'unauthenticated');
    await rejectsWith(restartBuild(ci.as(null), RAILS_BUILD), 'unauthenticated');
    await rejectsWith(cancelJob(ci.as(null), 1), 'unauthenticated');
    await rejectsWith(restartJob(ci.as(null), 1), 'unauthenticated');
    assert.deepEqual(ci.take(), []);
  });

  it('sends no body', async () => {
    const build = running();
    ci.take();
    await cancelBuild(ci.as(), build.id);
    const request = only(ci.take());
    assert.equal(request.body, '');
    assert.equal(request.headers['content-type'], undefined);
  });
});
