import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { createEnvVar, deleteEnvVar, getEnvVar, listEnvVars, updateEnvVar } from '../../src/ci/settings.js';
import { lines, only, RAILS_ID, rejectsWith, type Setup, setUp } from './helpers.js';

const SEEDED_KEY = '8aa1c74d-dcc4-4e41-9087-1326b7c68abd';

describe('CI client: environment variables (4.16)', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  it('lists on both paths, /settings/env_vars and /repos/settings/env_vars, private values left out', async () => {
    const plain = await listEnvVars(ci.as(), RAILS_ID);
    const underRepos = await listEnvVars(ci.as(), RAILS_ID, { path: 'repos/settings' });
    assert.deepEqual(plain, underRepos);
    assert.deepEqual(
      plain.map((v) => [v.name, v.public, v.value]),
      [
        ['encrypted_randomhex_key', false, undefined],
        ['encrypted_randomhex_iv', false, undefined],
      ],
    );
    assert.deepEqual(lines(ci.take()), [
      `GET /settings/env_vars?repository_id=${RAILS_ID}`,
      `GET /repos/settings/env_vars?repository_id=${RAILS_ID}`,
    ]);
  });

  it('POST creates (private unless public), GET reads, PATCH keeps omitted fields, DELETE removes', async () => {
    const created = await createEnvVar(ci.as(), RAILS_ID, {
      name: 'DEPLOY_ENV',
      value: 'staging',
      public: true,
    });
    assert.equal(created.value, 'staging');
    const post = only(ci.take());
    assert.equal(
      `${post.method} ${post.path}?${post.query}`,
      `POST /repos/settings/env_vars?repository_id=${RAILS_ID}`,
    );
    assert.deepEqual(JSON.parse(post.body), {
      env_var: { name: 'DEPLOY_ENV', value: 'staging', public: true },
    });

    assert.deepEqual(await getEnvVar(ci.as(), RAILS_ID, created.id), created);
    const updated = await updateEnvVar(ci.as(), RAILS_ID, created.id, { value: 'production' });
    assert.deepEqual([updated.name, updated.value, updated.public], ['DEPLOY_ENV', 'production', true]);
    await deleteEnvVar(ci.as(), RAILS_ID, created.id);
    assert.equal(ci.fake.state.envVars.has(created.id), false);
    const [get, patch, remove] = ci.take();
    assert.deepEqual(lines([get, patch, remove].flatMap((r) => r ?? [])), [
      `GET /repos/settings/env_vars/${created.id}?repository_id=${RAILS_ID}`,
      `PATCH /repos/settings/env_vars/${created.id}?repository_id=${RAILS_ID}`,
      `DELETE /repos/settings/env_vars/${created.id}?repository_id=${RAILS_ID}`,
    ]);
    assert.deepEqual(JSON.parse(patch?.body ?? ''), { env_var: { value: 'production' } });

    const secret = await createEnvVar(ci.as(), RAILS_ID, { name: 'TOKEN', value: 's3cret' });
    assert.equal(secret.public, false);
    assert.equal(secret.value, undefined);
    ci.take();
  });

  it('a duplicate name is rejected (422) naming the field', async () => {
    const error = await rejectsWith(
      createEnvVar(ci.as(), RAILS_ID, { name: 'encrypted_randomhex_key', value: 'x' }),
      'rejected',
    );
    assert.equal(error.data.fieldPath, 'name');
    assert.equal(error.data.errorType, 'not_unique');
    only(ci.take());
  });

  it('refuses a name that is not shell-exportable and an id that is not a UUID, before sending', async () => {
    await rejectsWith(createEnvVar(ci.as(), RAILS_ID, { name: 'BAD-NAME', value: 'x' }), 'bad_request');
    await rejectsWith(updateEnvVar(ci.as(), RAILS_ID, SEEDED_KEY, { name: '1X' }), 'bad_request');
    await rejectsWith(getEnvVar(ci.as(), RAILS_ID, '../../users'), 'bad_request');
    await rejectsWith(listEnvVars(ci.as(), 0), 'bad_request');
    assert.deepEqual(ci.take(), []);
  });
});
