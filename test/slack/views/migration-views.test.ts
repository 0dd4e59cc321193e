import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  migrationConfirmMessage,
  migrationProgressMessage,
  summaryText,
} from '../../../src/slack/views/migration.js';
import {
  subscriptionMovedMessage,
  subscriptionMoveOffer,
} from '../../../src/slack/views/migration-offers.js';
import type { Site } from '../../../src/slack/views/site.js';
import type { BatchRepo, MigrationBatch } from '../../../src/store/migration-batches.js';
import type { Subscription } from '../../../src/store/subscriptions.js';
import { assertFitsMessage, elementOf, mrkdwnTexts, shownText } from '../../helpers/slack-messages.js';

const ORG: Site = { deployment: 'org', label: 'travis-ci.org', webUrl: 'https://app.travis-ci.org' };
const COM: Site = { deployment: 'com', label: 'travis-ci.com', webUrl: 'https://app.travis-ci.com' };
const LONG_OWNER = 'o'.repeat(39);
const longSlug = (i: number) => `${LONG_OWNER}/${'r'.repeat(90)}-${i}`;

function batchOf(repos: BatchRepo[], overrides: Partial<MigrationBatch> = {}): MigrationBatch {
  return {
    v: 1,
    id: 'b1',
    teamId: 'T1',
    userId: 'U123',
    channelId: 'C1',
    from: 'org',
    to: 'com',
    createdAt: '2030-01-01T00:00:00.000Z',
    repos,
    ...overrides,
  };
}

const repo = (slug: string, status: BatchRepo['status'], detail?: string): BatchRepo => ({
  ref: slug,
  slug,
  status,
  requests: 1,
  checks: 2,
  ...(detail ? { detail } : {}),
});

describe('migration views', () => {
  it('the confirmation lists 50 long names within Slack’s limits, with Confirm and Cancel', () => {
    const repos = Array.from({ length: 50 }, (_, i) => ({ ref: longSlug(i) }));
    const message = migrationConfirmMessage({
      draftId: 'd1',
      from: ORG,
      to: COM,
      repos,
      alreadyMoved: 3,
      left: 12,
    });
    assertFitsMessage(message.blocks);
    const text = shownText(message as unknown as Record<string, unknown>);
    assert.match(text, /Move 50 repositories from travis-ci\.org to travis-ci\.com\?/);
    assert.match(text, /3 repositories of that owner moved already and are left out/);
    assert.match(text, /12 more are left for the next batch/);
    const confirm = elementOf(message as unknown as Record<string, unknown>, 'migration.confirm');
    assert.equal(confirm.style, 'primary');
    assert.deepEqual(JSON.parse(confirm.value ?? ''), { d: 'com', id: 'd1' });
    elementOf(message as unknown as Record<string, unknown>, 'migration.cancel');
  });

  it('names a repository given by id as an id of the new deployment', () => {
    const message = migrationConfirmMessage({
      draftId: 'd1',
      from: ORG,
      to: COM,
      repos: [{ ref: 4242 }],
      alreadyMoved: 0,
      left: 0,
    });
    assert.match(
      shownText(message as unknown as Record<string, unknown>),
      /repository 4242 \(its id on travis-ci\.com\)/,
    );
  });

  it('the progress of 50 repositories with long sentences fits one message', () => {
    const statuses: BatchRepo['status'][] = ['pending', 'requested', 'queued', 'migrating', 'error'];
    const repos = Array.from({ length: 50 }, (_, i) =>
      repo(longSlug(i), statuses[i % statuses.length] ?? 'pending', 'x'.repeat(900)),
    );
    const message = migrationProgressMessage({ batch: batchOf(repos), from: ORG, to: COM });
    assertFitsMessage(message.blocks);
    assert.match(
      message.text,
      /Migrating 50 repositories to travis-ci\.com: 10 of 50 done \(0 migrated, 10 failed\)/,
    );
  });

  it('escapes what the service said', () => {
    const message = migrationProgressMessage({
      batch: batchOf([
        repo('octo/app', 'error', 'The service said: “<!channel> @here <https://evil|click>”'),
      ]),
      from: ORG,
      to: COM,
    });
    const mrkdwn = mrkdwnTexts(message.blocks);
    assert.doesNotMatch(mrkdwn, /<!channel>|<https:\/\/evil/);
    assert.match(mrkdwn, /&lt;!channel&gt;/);
  });

  it('sums a finished batch up with the time it took', () => {
    const batch = batchOf(
      [
        ...Array.from({ length: 8 }, (_, i) => repo(`octo/r${i}`, 'migrated')),
        repo('octo/s', 'success'),
        repo('octo/f', 'failure'),
        repo('octo/a', 'already'),
      ],
      { finishedAt: '2030-01-01T00:02:10.000Z' },
    );
    assert.equal(summaryText(batch), '9 migrated, 1 failed, 1 already migrated in 2m 10s');
    const message = migrationProgressMessage({ batch, from: ORG, to: COM });
    assert.match(
      shownText(message as unknown as Record<string, unknown>),
      /\*9 migrated, 1 failed, 1 already migrated in 2m 10s\*/,
    );
  });

  it('asks a channel about its subscription with the filters in words, and says who moved it', () => {
    const sub: Subscription = {
      id: 'sub1',
      teamId: 'T1',
      channelId: 'C1',
      deployment: 'org',
      target: { kind: 'repo', repoId: 7, slug: 'octo/app' },
      filters: { only: 'failures', branches: ['main'] },
      createdBy: 'U1',
      createdAt: '2030-01-01T00:00:00.000Z',
      status: 'active',
    };
    const offer = migrationOffer(sub);
    assert.match(shownText(offer), /\*octo\/app\* moved to travis-ci\.com/);
    assert.match(shownText(offer), /only failures on `main`/);
    const move = elementOf(offer, 'migration.move_subscription');
    assert.deepEqual(JSON.parse(move.value ?? ''), { d: 'com', sub: 'sub1', what: 'octo/app' });
    assertFitsMessage(offer.blocks);

    const moved = subscriptionMovedMessage({
      from: sub,
      to: { ...sub, id: 'sub2', deployment: 'com' },
      userId: 'U9',
      site: COM,
      fromLabel: 'travis-ci.org',
    });
    assert.match(
      moved.text,
      /<@U9> moved this channel's subscription to <https:\/\/app\.travis-ci\.com\/github\/octo\/app\|octo\/app> from travis-ci\.org to travis-ci\.com \(only failures on `main`\)/,
    );

    const owner = migrationOffer({ ...sub, target: { kind: 'owner', owner: 'octo', repos: [] } });
    assert.match(shownText(owner), /Move its subscription to `octo\/\*` to travis-ci\.com/);
  });
});

function migrationOffer(subscription: Subscription): Record<string, unknown> {
  return subscriptionMoveOffer({ subscription, slug: 'octo/app', from: ORG, to: COM }) as unknown as Record<
    string,
    unknown
  >;
}
