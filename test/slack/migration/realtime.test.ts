import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readMigrationHint } from '../../../src/migration/realtime-hints.js';
import type { Harness } from '../../helpers/app-harness.js';
import {
  addRepoOnBoth,
  askToMigrate,
  confirm,
  FAST_MIGRATION,
  finalMessage,
  freshChannel,
  progressText,
  startMigrationHarness,
} from './world.js';

describe('readMigrationHint', () => {
  it('reads the repository a repository:migration payload names, wrapped or not', () => {
    assert.deepEqual(
      readMigrationHint({ repository: { id: 7, slug: 'a/b', migration_status: 'migrated' } }),
      {
        id: 7,
        slug: 'a/b',
      },
    );
    assert.deepEqual(readMigrationHint({ id: 7, migration_status: 'queued' }), { id: 7 });
    assert.deepEqual(readMigrationHint({ slug: 'a/b' }), { slug: 'a/b' });
  });

  it('gives nothing for payloads that name no repository', () => {
    for (const data of [
      null,
      'x',
      42,
      [],
      {},
      { repository: {} },
      { id: -1 },
      { id: 'seven' },
      { slug: 3 },
    ]) {
      assert.equal(readMigrationHint(data), undefined, JSON.stringify(data));
    }
  });
});

describe('/ci migrate with realtime migration events', () => {
  let h: Harness;
  before(async () => {
    // Status checks far apart: only the realtime events can make the batch end within the test.
    h = await startMigrationHarness({
      pusher: true,
      migrationTiming: { ...FAST_MIGRATION, firstCheckMs: 60_000, maxCheckMs: 60_000 },
    });
  });
  after(() => h.close());

  it('checks a repository as soon as an event says its migration moved', async () => {
    const channelId = freshChannel();
    // Steps 2 s apart, so the events come after the app listens on the user's channel.
    addRepoOnBoth(h, 'octo/live', { migrationStepMs: 2_000 });
    const rkh = [...h.ci.state.users.values()].find((u) => u.login === 'rkh');
    assert.ok(rkh, 'rkh exists on the new deployment');
    const started = Date.now();
    const confirmation = await askToMigrate(h, 'octo/live', { channelId });
    await confirm(h, confirmation, { channelId });
    await h.pusher?.waitForSubscription(`private-user-${rkh.id}`, 10_000);
    const final = await finalMessage(h, channelId, 20_000);
    assert.match(progressText(final), /octo\/live\|octo\/live> · migrated/);
    assert.ok(Date.now() - started < 30_000, 'finished long before the first scheduled check (60 s)');
    const checks = h.ci.requests.filter((r) => r.method === 'GET' && /^\/repo\/\d+$/.test(r.path));
    assert.ok(checks.length > 0, 'the status itself was read over REST');
  });
});
