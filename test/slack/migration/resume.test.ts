import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { MigrationRunner } from '../../../src/migration/runner.js';
import { type MigrationBatch, MigrationBatches } from '../../../src/store/migration-batches.js';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import type { Harness } from '../../helpers/app-harness.js';
import { assertSlackAccepted } from '../../helpers/slack-messages.js';
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

describe('a migration batch across restarts', () => {
  let h: Harness;
  const runners: MigrationRunner[] = [];
  /** Another process on the same Redis, as after a restart or beside a replica. */
  const newProcess = () => {
    const runner = new MigrationRunner(() => h.services, FAST_MIGRATION);
    runners.push(runner);
    return runner;
  };

  before(async () => {
    h = await startMigrationHarness();
  });
  afterEach(() => assertSlackAccepted(h));
  after(async () => {
    await Promise.all(runners.map((r) => r.stop()));
    await h.close();
  });

  const migrateRequests = (slug: string) =>
    h.ci.requests.filter(
      (r) => r.method === 'POST' && r.path === `/repo/${encodeURIComponent(slug)}/migrate`,
    );

  it('is resumed by the next process, which edits the same message to the end', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'slow/one', { migrationStepMs: 400 });
    addRepoOnBoth(h, 'slow/two', { migrationStepMs: 400 });
    const confirmation = await askToMigrate(h, 'slow/one slow/two', { channelId });
    await confirm(h, confirmation, { channelId });
    // Both were sent and are being migrated when the process stops.
    await h.slack.waitForCall(
      'chat.update',
      (c) => c.args.channel === channelId && /slow\/two> · queued/.test(JSON.stringify(c.args.blocks)),
    );
    await h.services.migrations.stop();
    const open = await new MigrationBatches(h.kv).openIds();
    assert.equal(open.length, 1, 'the batch waits in Redis');

    // Two processes start; one takes the batch.
    await Promise.all([newProcess().start(), newProcess().start()]);
    const final = await finalMessage(h, channelId);
    assert.match(progressText(final), /2 migrated, 0 failed in/);
    assert.equal(h.slack.messages(channelId).length, 1, 'one message, edited by both processes');
    assert.equal(migrateRequests('slow/one').length, 1, 'nothing was asked twice');
    assert.equal(migrateRequests('slow/two').length, 1);
    // Stopping waits for what is under way, the batch's last step included.
    await Promise.all(runners.map((r) => r.stop()));
    assert.deepEqual(await new MigrationBatches(h.kv).openIds(), []);
  });

  it('starts a batch whose process stopped before sending anything', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'cold/start');
    const batch: MigrationBatch = {
      v: 1,
      id: MigrationBatches.newId(),
      teamId: FAKE_IDENTITY.teamId,
      userId: FAKE_IDENTITY.userId,
      channelId,
      from: 'org',
      to: 'com',
      createdAt: new Date().toISOString(),
      repos: [{ ref: 'cold/start', slug: 'cold/start', status: 'pending', requests: 0, checks: 0 }],
    };
    await new MigrationBatches(h.kv).create(batch);
    await newProcess().start();
    assert.match(progressText(await finalMessage(h, channelId)), /1 migrated, 0 failed/);
    assert.equal(migrateRequests('cold/start')[0]?.headers.authorization, 'token token-rkh');
  });
});
