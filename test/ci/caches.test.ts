import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { deleteCaches, listCaches } from '../../src/ci/caches.js';
import { lines, RAILS_ID, rejectsWith, type Setup, setUp } from './helpers.js';

describe('CI client: caches (4.7)', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  it('GET /repos/{repo}/caches by id and slug, with branch and match', async () => {
    assert.equal((await listCaches(ci.as(), RAILS_ID)).length, 3);
    const master = await listCaches(ci.as(), 'rails/rails', { branch: 'master' });
    assert.deepEqual(
      master.map((c) => c.slug),
      ['cache--rvm-1.9.3--gemfile-Gemfile', 'cache--rvm-2.0.0--gemfile-Gemfile'],
    );
    const matching = await listCaches(ci.as(), RAILS_ID, { match: '2.0.0' });
    assert.deepEqual(
      matching.map((c) => c.branch),
      ['master', '4-0-stable'],
    );
    assert.equal(matching[0]?.size, 19_922_944);
    assert.deepEqual(lines(ci.take()), [
      `GET /repos/${RAILS_ID}/caches`,
      'GET /repos/rails/rails/caches?branch=master',
      `GET /repos/${RAILS_ID}/caches?match=2.0.0`,
    ]);
  });

  it('DELETE /repos/{repo}/caches with the same filters answers what it deleted', async () => {
    const deleted = await deleteCaches(ci.as(), 'rails/rails', { branch: '4-0-stable', match: '2.0.0' });
    assert.deepEqual(
      deleted.map((c) => c.branch),
      ['4-0-stable'],
    );
    assert.equal((await deleteCaches(ci.as(), RAILS_ID)).length, 2);
    assert.deepEqual(await listCaches(ci.as(), RAILS_ID), []);
    assert.deepEqual(lines(ci.take()), [
      'DELETE /repos/rails/rails/caches?branch=4-0-stable&match=2.0.0',
      `DELETE /repos/${RAILS_ID}/caches`,
      `GET /repos/${RAILS_ID}/caches`,
    ]);
  });

  it('both need a token: refused before sending', async () => {
    await rejectsWith(listCaches(ci.as(null), RAILS_ID), 'unauthenticated');
    await rejectsWith(deleteCaches(ci.as(null), RAILS_ID), 'unauthenticated');
    assert.deepEqual(ci.take(), []);
  });
});
