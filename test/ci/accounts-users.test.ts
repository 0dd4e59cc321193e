import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getPermissions, listAccounts, listBroadcasts } from '../../src/ci/accounts.js';
import { getUser, syncUser } from '../../src/ci/users.js';
import { lines, RAILS_ID, rejectsWith, SECRET_REPO_ID, type Setup, setUp, VISITOR_TOKEN } from './helpers.js';

describe('CI client: accounts, broadcasts, permissions, users (4.3, 4.5, 4.11, 4.18)', () => {
  let ci: Setup;
  before(async () => {
    // A sync runs far longer than the test: the second request always meets the first one running.
    ci = await setUp({ fake: { syncDurationMs: 60_000 } });
  });
  after(() => ci.close());

  it('GET /accounts lists the admin accounts, and with all=true the others too', async () => {
    const own = await listAccounts(ci.as());
    assert.deepEqual(
      own.map((a) => [a.login, a.type]),
      [['rkh', 'user']],
    );
    const all = await listAccounts(ci.as(), { all: true });
    assert.deepEqual(
      all.map((a) => a.login),
      ['rkh', 'rails'],
    );
    assert.equal(all[1]?.subscribed, false);
    assert.equal(all[0]?.repos_count, 200);
    assert.deepEqual(lines(ci.take()), ['GET /accounts', 'GET /accounts?all=true']);
  });

  it('GET /broadcasts', async () => {
    assert.deepEqual(await listBroadcasts(ci.as()), [{ id: 1, message: 'Hello!' }]);
    assert.deepEqual(lines(ci.take()), ['GET /broadcasts']);
  });

  it('GET /users/permissions gives repository ids by access level', async () => {
    const permissions = await getPermissions(ci.as());
    assert.deepEqual(permissions.admin, [RAILS_ID, SECRET_REPO_ID]);
    assert.deepEqual(permissions.push, [RAILS_ID, SECRET_REPO_ID]);
    assert.deepEqual(permissions.pull, [RAILS_ID, SECRET_REPO_ID]);
    assert.deepEqual(permissions.permissions, [RAILS_ID, SECRET_REPO_ID]);
    assert.deepEqual((await getPermissions(ci.as(VISITOR_TOKEN))).admin, []);
    assert.deepEqual(lines(ci.take()), ['GET /users/permissions', 'GET /users/permissions']);
  });

  it('GET /users/{id} reads a user', async () => {
    const user = await getUser(ci.as(), 267);
    assert.equal(user.login, 'rkh');
    assert.equal(user.correct_scopes, true);
    assert.deepEqual(lines(ci.take()), ['GET /users/267']);
  });

  it('POST /users/sync starts a sync once; a second one while it runs is a conflict with the message', async () => {
    const visitor = ci.as(VISITOR_TOKEN);
    await syncUser(visitor);
    const error = await rejectsWith(syncUser(visitor), 'conflict');
    assert.equal(error.data.status, 409);
    assert.equal(error.data.serviceMessage, 'Sync already in progress. Try again later.');
    assert.match(error.message, /Sync already in progress/);
    assert.deepEqual(lines(ci.take()), ['POST /users/sync', 'POST /users/sync']);
    assert.equal(ci.fake.state.getUser('visitor')?.isSyncing, true);
  });

  it('every one of these needs a token: refused before sending', async () => {
    await rejectsWith(listAccounts(ci.as(null)), 'unauthenticated');
    await rejectsWith(listBroadcasts(ci.as(null)), 'unauthenticated');
    await rejectsWith(getPermissions(ci.as(null)), 'unauthenticated');
    await rejectsWith(getUser(ci.as(null), 267), 'unauthenticated');
    await rejectsWith(syncUser(ci.as(null)), 'unauthenticated');
    assert.deepEqual(ci.take(), []);
  });
});
