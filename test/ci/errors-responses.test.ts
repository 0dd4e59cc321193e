import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { z } from 'zod';
import { listBuilds } from '../../src/ci/builds.js';
import { getJobLogText } from '../../src/ci/logs.js';
import { getRepo } from '../../src/ci/repos.js';
import { createEnvVar } from '../../src/ci/settings.js';
import { FAILED_JOB, only, RAILS_BUILD, RAILS_ID, rejectsWith, type Setup, setUp } from './helpers.js';

describe('CI client: invalid_response and rejected', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp({ client: { maxRetries: 0, maxBodyBytes: 4096 } });
  });
  afterEach(() => {
    ci.fake.clearFaults();
    ci.take();
  });
  after(() => ci.close());

  it('malformed JSON is invalid_response', async () => {
    ci.fake.fault({ path: '/builds' }, { malformed: true, times: 1 });
    const error = await rejectsWith(listBuilds(ci.as(), { ids: [RAILS_BUILD] }), 'invalid_response');
    assert.equal(error.data.status, 200);
    assert.match(error.message, /malformed JSON/);
    assert.ok(error.cause instanceof SyntaxError);
  });

  it('a field of the wrong type is invalid_response naming its path', async () => {
    const body = JSON.stringify({ repo: { id: '891', slug: 'rails/rails' } });
    ci.fake.fault({ path: '/repos/rails/rails' }, { status: 200, body, times: 1 });
    const error = await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'invalid_response');
    assert.equal(error.data.fieldPath, 'repo.id');
    assert.match(error.message, /repo\.id/);
  });

  it('a missing field deep in a list is named with its index', async () => {
    const body = JSON.stringify({
      builds: [{ id: 1, repository_id: 2, number: '3', state: 'passed' }, { id: 4 }],
    });
    ci.fake.fault({ path: '/builds' }, { status: 200, body, times: 1 });
    const error = await rejectsWith(listBuilds(ci.as(), { repositoryId: RAILS_ID }), 'invalid_response');
    assert.equal(error.data.fieldPath, 'builds.1.repository_id');
  });

  it('an answer larger than maxBodyBytes is invalid_response (logs are streamed instead)', async () => {
    ci.fake.state.setLog(FAILED_JOB, 'x'.repeat(4097));
    const error = await rejectsWith(getJobLogText(ci.as(), FAILED_JOB), 'invalid_response');
    assert.match(error.message, /larger than 4096 bytes/);
  });

  it('a 422 validation failure is rejected with the message and the field', async () => {
    const error = await rejectsWith(
      createEnvVar(ci.as(), RAILS_ID, { name: 'encrypted_randomhex_iv', value: 'v' }),
      'rejected',
    );
    assert.equal(error.data.status, 422);
    assert.equal(error.data.serviceMessage, 'Validation failed (name not_unique)');
    assert.equal(error.data.fieldPath, 'name');
    only(ci.take());
  });

  it('a V3 405 method_not_allowed is rejected with its error_type', async () => {
    const error = await rejectsWith(
      ci.as().json({ method: 'GET', path: `/repo/${RAILS_ID}/migrate`, api: 'v3' }, z.unknown()),
      'rejected',
    );
    assert.equal(error.data.status, 405);
    assert.equal(error.data.errorType, 'method_not_allowed');
    assert.equal(error.data.serviceMessage, 'method not allowed');
  });

  it('any other 4xx is rejected with its status', async () => {
    ci.fake.fault({ path: '/repos/rails/rails' }, { status: 418, body: "I'm a teapot", times: 1 });
    const error = await rejectsWith(getRepo(ci.as(), 'rails/rails'), 'rejected');
    assert.equal(error.data.status, 418);
    assert.equal(error.data.serviceMessage, "I'm a teapot");
  });
});
