import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  filtersInWords,
  homeSubscriptionsSection,
  subscribedMessage,
  subscriptionsMessage,
} from '../../../src/slack/views/subscriptions.js';
import type { Subscription } from '../../../src/store/subscriptions.js';
import { blocksTextLength, checkBlocks } from '../../fakes/slack/block-kit.js';

const describeDeployment = () => ({ label: 'travis-ci.com', webUrl: 'https://app.travis-ci.com' });

function repoSub(i: number, overrides: Partial<Subscription> = {}): Subscription {
  return {
    id: `s${i}`,
    teamId: 'T1',
    channelId: 'C1',
    deployment: 'com',
    target: { kind: 'repo', repoId: i, slug: `octo/repo-${i}` },
    filters: { branches: ['main', 'release/*'], only: 'failures', excludeAuthors: ['dependabot*'] },
    createdBy: 'U1',
    createdAt: '2030-01-01T00:00:00.000Z',
    status: 'active',
    ...overrides,
  };
}

describe('subscription views', () => {
  it('says filters in words', () => {
    assert.equal(filtersInWords({}), 'every build');
    assert.equal(filtersInWords({ only: 'failures', branches: ['main'] }), 'only failures on `main`');
    assert.equal(
      filtersInWords({
        only: 'changes',
        branches: ['main', 'release/*', 'dev'],
        events: ['push', 'cron'],
        excludeAuthors: ['dependabot*', 'renovate*'],
        threads: false,
        started: true,
      }),
      'only changes (broken, fixed, still failing) on `main`, `release/*` or `dev`; events: push, cron; ' +
        'except commits by `dependabot*` or `renovate*`; `started:on` has no effect with `only:changes`; ' +
        'failure logs in the channel',
    );
    assert.equal(
      filtersInWords({ started: true, threads: true }),
      'every build; shown from the start of each build',
    );
  });

  it('lists 300 subscriptions within Slack limits, saying how many are shown', () => {
    const subs = Array.from({ length: 300 }, (_, i) =>
      repoSub(i + 1, i % 3 === 0 ? { status: 'paused', pausedReason: '<!channel> odd reason' } : {}),
    );
    const message = subscriptionsMessage(subs, describeDeployment);
    assert.deepEqual(checkBlocks(message.blocks, 'message', '/blocks'), []);
    assert.ok(blocksTextLength(message.blocks) < 12_000);
    const text = JSON.stringify(message.blocks);
    assert.match(text, /showing \d+ of 300/);
    assert.doesNotMatch(text, /<!channel>/);
    assert.match(text, /&lt;!channel&gt; odd reason/);
  });

  it('fits an owner subscription of 2,000 repositories and a long Home list', () => {
    const repos = Array.from({ length: 2_000 }, (_, i) => ({ id: i + 1, slug: `big/repo-${i}` }));
    const owner = repoSub(1, { target: { kind: 'owner', owner: 'big', repos } });
    const message = subscribedMessage(
      { subscription: owner, userId: 'U1', deployment: describeDeployment() },
      'channel',
    );
    assert.deepEqual(checkBlocks(message.blocks, 'message', '/blocks'), []);
    assert.match(JSON.stringify(message.blocks), /and 1,990 more/);

    const home = homeSubscriptionsSection(
      Array.from({ length: 200 }, (_, i) => repoSub(i)),
      describeDeployment,
    );
    assert.deepEqual(checkBlocks(home, 'view', '/blocks'), []);
    assert.match(JSON.stringify(home), /showing \d+ of 200/);
    assert.match(JSON.stringify(homeSubscriptionsSection([], describeDeployment)), /None yet/);
  });
});
