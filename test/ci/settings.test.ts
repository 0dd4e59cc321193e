import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { deleteSshKey, getSettings, getSshKey, setSshKey, updateSettings } from '../../src/ci/settings.js';
import { lines, only, RAILS_ID, rejectsWith, type Setup, setUp, VISITOR_TOKEN } from './helpers.js';

describe('CI client: repository settings and the custom SSH key (4.15, 4.17)', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  it('GET /repos/{id}/settings gives every key the service returns', async () => {
    const settings = await getSettings(ci.as(), RAILS_ID);
    assert.equal(settings.build_pushes, true);
    assert.equal(settings.maximum_number_of_builds, 0);
    assert.equal(settings.auto_cancel_pull_requests, false);
    assert.deepEqual(lines(ci.take()), [`GET /repos/${RAILS_ID}/settings`]);
  });

  it('PATCH /repos/{id}/settings {settings} changes only the given keys', async () => {
    const updated = await updateSettings(ci.as(), RAILS_ID, {
      build_pushes: false,
      maximum_number_of_builds: 3,
    });
    assert.equal(updated?.build_pushes, false);
    assert.equal(updated?.maximum_number_of_builds, 3);
    assert.equal(updated?.build_pull_requests, true);
    const request = only(ci.take());
    assert.equal(request.method, 'PATCH');
    assert.deepEqual(JSON.parse(request.body), {
      settings: { build_pushes: false, maximum_number_of_builds: 3 },
    });
  });

  it('a setting the service refuses is rejected (422) naming the field', async () => {
    const error = await rejectsWith(updateSettings(ci.as(), RAILS_ID, { build_pushes: 'maybe' }), 'rejected');
    assert.equal(error.data.status, 422);
    assert.equal(error.data.fieldPath, 'build_pushes');
    assert.equal(error.data.errorType, 'invalid');
    assert.equal(error.data.serviceMessage, 'Validation failed (build_pushes invalid)');
    ci.take();
  });

  it('a read without push access is insufficient_access', async () => {
    const error = await rejectsWith(getSettings(ci.as(VISITOR_TOKEN), RAILS_ID), 'insufficient_access');
    assert.equal(error.data.status, 403);
    assert.equal(error.data.errorType, 'insufficient_access');
    assert.match(error.data.serviceMessage ?? '', /requires push access/);
    ci.take();
  });

  it('PATCH, GET and DELETE /settings/ssh_key/{id}', async () => {
    const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    const value = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
    const saved = await setSshKey(ci.as(), RAILS_ID, { value, description: 'deploy key' });
    assert.equal(saved.description, 'deploy key');
    assert.match(saved.fingerprint ?? '', /^([0-9a-f]{2}:){15}[0-9a-f]{2}$/);
    assert.deepEqual(await getSshKey(ci.as(), RAILS_ID), saved);
    await deleteSshKey(ci.as(), RAILS_ID);
    await rejectsWith(getSshKey(ci.as(), RAILS_ID), 'not_found');
    const [patch, ...rest] = ci.take();
    assert.deepEqual(JSON.parse(patch?.body ?? ''), { ssh_key: { value, description: 'deploy key' } });
    assert.deepEqual(lines(rest), [
      `GET /settings/ssh_key/${RAILS_ID}`,
      `DELETE /settings/ssh_key/${RAILS_ID}`,
      `GET /settings/ssh_key/${RAILS_ID}`,
    ]);
  });

  it('a value that is not a private key is rejected by the service; an empty one locally', async () => {
    const error = await rejectsWith(setSshKey(ci.as(), RAILS_ID, { value: 'not a key' }), 'rejected');
    assert.equal(error.data.errorType, 'not_a_private_key');
    assert.equal(error.data.fieldPath, 'value');
    only(ci.take());
    const local = await rejectsWith(setSshKey(ci.as(), RAILS_ID, { value: '  ' }), 'bad_request');
    assert.equal(local.data.rule, 'the private key is required');
    assert.deepEqual(ci.take(), []);
  });
});
