import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { CiClient, type CiSession } from '../../src/ci/client.js';
import {
  findRepos,
  MAX_RESOLVED_REPOS,
  permissionsOf,
  startSync,
  waitForSync,
} from '../../src/ops/accounts.js';
import { UserFacingError } from '../../src/ops/describe-error.js';
import { type FakeCi, startFakeCi } from '../fakes/ci/index.js';

describe('account use cases against the fake CI service', () => {
  let ci: FakeCi;
  let client: CiClient;
  let session: CiSession;
  before(async () => {
    ci = await startFakeCi({ syncDurationMs: 60_000 });
    client = new CiClient({
      deployments: { com: { name: 'com', apiUrl: ci.url, webUrl: 'https://app.travis-ci.com' } },
      mediaType: 'application/vnd.travis-ci.2.1+json',
      versionHeader: 'Travis-API-Version',
      connectTimeoutMs: 1_000,
      requestTimeoutMs: 5_000,
      maxRetries: 0,
      userAgent: 'ci-slack-test/0.0.0',
    });
    session = client.session('com', 'token-rkh');
  });
  after(async () => {
    await client.close();
    await ci.close();
  });

  it('waitForSync gives up, without an error, while the sync is still running', async () => {
    await startSync(session);
    const slept: number[] = [];
    const user = await waitForSync(session, [1, 2], async (ms) => void slept.push(ms));
    assert.equal(user, undefined);
    assert.deepEqual(slept, [1, 2]);
  });

  it('startSync turns a 409 into "a sync is already running"', async () => {
    await assert.rejects(startSync(session), (error: unknown) => {
      return error instanceof UserFacingError && /A sync is already running/.test(error.message);
    });
  });

  it('waitForSync gives the user once the sync finished', async () => {
    const record = ci.state.getUser('rkh');
    assert.ok(record);
    record.isSyncing = false;
    const user = await waitForSync(session, [1], async () => undefined);
    assert.equal(user?.login, 'rkh');
  });

  it('findRepos means "mine" unless an owner or member is named', async () => {
    await findRepos(session, 'rkh', { term: 'rails' });
    assert.equal(ci.requests.at(-1)?.query.get('member'), 'rkh');
    await findRepos(session, 'rkh', { owner: 'rails' });
    assert.equal(ci.requests.at(-1)?.query.has('member'), false);
    await findRepos(session, 'rkh', { owner: 'rails', member: 'visitor' });
    assert.equal(ci.requests.at(-1)?.query.get('member'), 'visitor');
  });

  it('permissionsOf resolves at most MAX_RESOLVED_REPOS slugs, admin ones first', async () => {
    for (let i = 0; i < MAX_RESOLVED_REPOS + 20; i++) {
      const repo = ci.state.addRepo({ slug: `many/repo-${i}` });
      ci.state.grant('rkh', repo.id, i < 10 ? 'push' : 'admin');
    }
    const summary = await permissionsOf(session);
    assert.equal(summary.slugs.size, MAX_RESOLVED_REPOS);
    for (const id of summary.ids.admin.slice(0, MAX_RESOLVED_REPOS)) assert.ok(summary.slugs.has(id));
    assert.equal(summary.slugs.get(891), 'rails/rails');
  });
});
