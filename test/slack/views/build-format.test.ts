import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  commitSubject,
  jobConfigSummary,
  pullRequestUrl,
  timingText,
} from '../../../src/slack/views/build-format.js';
import { RAILS_BUILD_NOW } from '../../helpers/view-data.js';

describe('build formatting', () => {
  it('takes the first non-empty line of a commit message as its subject, on one line and cut', () => {
    assert.equal(commitSubject('\n\n  Fix\tthe   thing  \n\nBody'), 'Fix the thing');
    assert.equal(commitSubject(null), '');
    assert.equal(commitSubject('x'.repeat(200), 10), `${'x'.repeat(9)}…`);
  });

  it('picks the parts of a job config that tell matrix jobs apart', () => {
    assert.equal(
      jobConfigSummary({ language: 'ruby', rvm: '2.0.0', env: 'GEM=railties', os: 'linux' }),
      'rvm 2.0.0 · GEM=railties',
    );
    assert.equal(
      jobConfigSummary({
        name: 'Lint',
        node_js: [18, 20],
        env: ['A=1', { secure: 'xyz' }, 'B=2'],
        os: 'osx',
        arch: 'arm64',
      }),
      'Lint · node_js 18, 20 · A=1 B=2 · osx · arm64',
    );
    assert.equal(jobConfigSummary({ env: { jobs: ['X=1'] } }), 'X=1');
    assert.equal(jobConfigSummary({ env: { secure: 'xyz' } }), '');
    assert.equal(jobConfigSummary(undefined), '');
    assert.equal(jobConfigSummary({ env: 'E='.repeat(100) }, 20).length, 20);
  });

  it('derives a pull request link only from a well-formed slug and number', () => {
    assert.equal(pullRequestUrl('rails/rails', '42'), 'https://github.com/rails/rails/pull/42');
    assert.equal(pullRequestUrl('not a slug', 1), undefined);
    assert.equal(pullRequestUrl('a/b', '1|x'), undefined);
  });

  it('says how long something ran, runs or waits', () => {
    assert.equal(
      timingText({ state: 'passed', duration: 95, finished_at: '2013-01-13T17:50:17Z' }, RAILS_BUILD_NOW),
      '1m 35s · finished 5 min ago',
    );
    assert.equal(
      timingText(
        { state: 'failed', started_at: '2013-01-13T17:00:00Z', finished_at: '2013-01-13T17:01:00Z' },
        RAILS_BUILD_NOW,
        {
          ago: false,
        },
      ),
      '1m',
    );
    assert.equal(
      timingText({ state: 'started', started_at: '2013-01-13T17:54:17Z' }, RAILS_BUILD_NOW),
      'running for 1m',
    );
    assert.equal(timingText({ state: 'queued' }, RAILS_BUILD_NOW), 'waiting to start');
    assert.equal(timingText({ state: 'canceled' }, RAILS_BUILD_NOW), '');
  });
});
