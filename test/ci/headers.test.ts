import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { lintConfigYaml } from '../../src/ci/lint.js';
import { getJobLogText, getLogParts } from '../../src/ci/logs.js';
import { getV3Repository, migrateRepository } from '../../src/ci/migration.js';
import { getRepo, setHook } from '../../src/ci/repos.js';
import { startFakeCi } from '../fakes/ci/index.js';
import {
  clientFor,
  FAILED_JOB,
  FAILED_JOB_LOG,
  MEDIA_TYPE,
  only,
  RAILS_ID,
  RKH_TOKEN,
  type Setup,
  setUp,
  USER_AGENT,
} from './helpers.js';

describe('CI client: headers as the service receives them', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  it('sends the media type, name/version and the token on a V2.1 read', async () => {
    await getRepo(ci.as(), 'rails/rails');
    const { headers } = only(ci.take());
    assert.equal(headers.accept, MEDIA_TYPE);
    assert.equal(headers['user-agent'], USER_AGENT);
    assert.equal(headers.authorization, `token ${RKH_TOKEN}`);
    assert.equal(headers['travis-api-version'], undefined);
    assert.equal(headers['content-type'], undefined);
  });

  it('sends no Authorization header when the session has no token', async () => {
    await getRepo(ci.as(null), RAILS_ID);
    const { headers } = only(ci.take());
    assert.equal(headers.authorization, undefined);
    assert.equal(headers.accept, MEDIA_TYPE);
  });

  it('appends chunked=true to the media type for the chunked log, and asks text/plain for the text', async () => {
    await getLogParts(ci.as(), FAILED_JOB_LOG);
    assert.equal(only(ci.take()).headers.accept, `${MEDIA_TYPE}; chunked=true`);
    await getJobLogText(ci.as(), FAILED_JOB);
    assert.equal(only(ci.take()).headers.accept, 'text/plain');
  });

  it('sends JSON bodies as application/json and raw YAML as text/yaml', async () => {
    await setHook(ci.as(), RAILS_ID, true);
    const hook = only(ci.take());
    assert.equal(hook.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(hook.body), { hook: { id: RAILS_ID, active: true } });
    await lintConfigYaml(ci.as(), 'language: ruby\n');
    const lint = only(ci.take());
    assert.equal(lint.headers['content-type'], 'text/yaml');
    assert.equal(lint.body, 'language: ruby\n');
  });

  it('sends the version header 3, Accept and Content-Type application/json on V3 calls', async () => {
    await getV3Repository(ci.as(), RAILS_ID);
    await migrateRepository(ci.as(), RAILS_ID);
    for (const { headers } of ci.take()) {
      assert.equal(headers['travis-api-version'], '3');
      assert.equal(headers.accept, 'application/json');
      assert.equal(headers['content-type'], 'application/json');
      assert.equal(headers['user-agent'], USER_AGENT);
      assert.equal(headers.authorization, `token ${RKH_TOKEN}`);
    }
  });
});

describe('CI client: media type and version header come from config', () => {
  it('uses the configured names, which a service with other names accepts', async (t) => {
    const mediaType = 'application/vnd.example-ci.2.1+json';
    const versionHeader = 'Example-API-Version';
    const fake = await startFakeCi({ mediaType, versionHeader });
    const { client } = clientFor(fake.url, { mediaType, versionHeader, userAgent: 'other-client/9.8.7' });
    t.after(async () => {
      await client.close();
      await fake.close();
    });
    const session = client.session('com', RKH_TOKEN);
    assert.equal((await getRepo(session, 'rails/rails')).id, RAILS_ID);
    assert.equal((await getV3Repository(session, 'rails/rails')).id, RAILS_ID);
    const [v2, v3] = fake.requests;
    assert.equal(v2?.headers.accept, mediaType);
    assert.equal(v2?.headers['user-agent'], 'other-client/9.8.7');
    assert.equal(v3?.headers['example-api-version'], '3');
    assert.equal(v3?.headers['travis-api-version'], undefined);
  });
});
