import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { readMigrationHint } from '../../../src/migration/realtime-hints.js';
import type { Harness } from '../../helpers/app-harness.js';
import {
  addRepoOnBoth,
  FAST_MIGRATION,
  freshChannel,
  migrate,
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
    addRepoOnBoth(h, 'octo/live');
    const started = Date.now();
    const final = await migrate(h, 'octo/live', { channelId });
    assert.match(progressText(final), /octo\/live\|octo\/live> · migrated/);
    assert.ok(Date.now() - started < 10_000, 'finished long before the first scheduled check');
    const checks = h.ci.requests.filter((r) => r.method === 'GET' && /^\/repo\/\d+$/.test(r.path));
    assert.ok(checks.length > 0, 'the status itself was read over REST');
  });
});
