import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { commitLogins, isOwnCommit } from '../../src/notify/own-commits.js';

describe('own commits', () => {
  const rkh = { ciLogin: 'rkh', email: 'Konstantin.Haase@gmail.com' };

  it('matches the profile e-mail without case', () => {
    assert.ok(
      isOwnCommit(rkh, { authorName: 'Konstantin Haase', authorEmail: 'konstantin.haase@gmail.com' }),
    );
    assert.ok(!isOwnCommit(rkh, { authorName: 'Konstantin Haase', authorEmail: 'someone@else.org' }));
  });

  it('matches the login in a GitHub no-reply address or as the author name', () => {
    assert.ok(isOwnCommit({ ciLogin: 'rkh' }, { authorEmail: '30442+RKH@users.noreply.github.com' }));
    assert.ok(isOwnCommit({ ciLogin: 'rkh' }, { authorEmail: 'rkh@users.noreply.github.com' }));
    assert.ok(isOwnCommit({ ciLogin: 'rkh' }, { authorName: 'RKH' }));
    assert.ok(!isOwnCommit({ ciLogin: 'rkh' }, { authorName: 'Konstantin Haase', authorEmail: null }));
    assert.ok(!isOwnCommit({ ciLogin: 'rkh' }, {}));
  });

  it('lists the logins a commit names', () => {
    assert.deepEqual(commitLogins({ authorName: 'Ada', authorEmail: '1+ada-l@users.noreply.github.com' }), [
      'ada-l',
      'ada',
    ]);
    assert.deepEqual(commitLogins({ authorName: 'Ada Lovelace', authorEmail: 'ada@example.com' }), []);
    assert.deepEqual(commitLogins({ authorName: 'dependabot[bot]' }), []);
  });
});
