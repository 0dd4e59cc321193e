import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Harness } from '../../helpers/app-harness.js';
import { assertFitsMessage, elementOf, shownText } from '../../helpers/slack-messages.js';
import {
  addRepoOnBoth,
  askToMigrate,
  confirm,
  finalMessage,
  freshChannel,
  migrate,
  progressText,
  startMigrationHarness,
} from './world.js';

describe('/ci migrate', () => {
  let h: Harness;
  before(async () => {
    h = await startMigrationHarness();
  });
  afterEach(() => {
    // One test makes the channel refuse the post on purpose.
    const refused = h.slack.rejected().filter((c) => c.error !== 'not_in_channel');
    assert.deepEqual(refused, []);
    assert.deepEqual(
      h.slack.responses.filter((r) => !r.ok),
      [],
    );
  });
  after(() => h.close());

  const migrateRequests = () =>
    h.ci.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/migrate'));

  it('confirms privately what moves, then migrates one repository as the confirming user', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'octo/one');
    const before = migrateRequests().length;
    const confirmation = await askToMigrate(h, 'octo/one', { channelId });
    assert.equal(confirmation.response_type, 'ephemeral');
    const text = shownText(confirmation);
    assert.match(text, /Move 1 repository from travis-ci\.org to travis-ci\.com\?/);
    assert.match(text, /octo\/one/);
    assert.match(
      text,
      /public and encrypted environment variables, SSH keys, settings, cron jobs, the last build status, the next build number and the build history/,
    );
    assert.match(text, /Does not move:\* caches; the first build on travis-ci\.com rebuilds them/);
    assertFitsMessage(confirmation.blocks);
    assert.equal(migrateRequests().length, before, 'nothing is sent before the confirmation');

    const started = await confirm(h, confirmation, { channelId });
    assert.equal(started.replace_original, true);
    const final = await finalMessage(h, channelId);
    const shown = progressText(final);
    assert.match(
      shown,
      /:white_check_mark: <https:\/\/app\.travis-ci\.com\/github\/octo\/one\|octo\/one> · migrated/,
    );
    assert.match(shown, /1 migrated, 0 failed in \d/);
    assert.match(shown, /Started by <@U0USER> · from travis-ci\.org/);

    const [request, ...others] = migrateRequests().slice(before);
    assert.deepEqual(others, []);
    assert.equal(request?.path, '/repo/octo%2Fone/migrate');
    assert.equal(request?.headers.authorization, 'token token-rkh');
    assert.equal(request?.headers['travis-api-version'], '3');
    assert.equal(h.ci.state.getRepo('octo/one')?.migrationStatus, 'migrated');
    // Each step showed up in the message as it happened.
    const versions = final.history.map((v) => v.text);
    assert.ok(
      versions.some((t) => /0 of 1 done/.test(t)),
      versions.join('\n'),
    );
  });

  it('moves a batch of 10 with one failing, and sums it up with the time it took', async () => {
    const channelId = freshChannel();
    const slugs = Array.from({ length: 10 }, (_, i) => `batch/repo-${i}`);
    for (const slug of slugs) addRepoOnBoth(h, slug);
    const failing = h.ci.state.getRepo('batch/repo-4');
    assert.ok(failing);
    failing.migrationPlan = ['queued', 'migrating', 'failure'];
    const final = await migrate(h, slugs.join(' '), { channelId });
    const shown = progressText(final);
    assert.match(shown, /9 migrated, 1 failed in \d+s/);
    assert.match(shown, /:x: <[^|]+\|batch\/repo-4> · failed: travis-ci\.com could not migrate it/);
    for (const slug of slugs.filter((s) => s !== 'batch/repo-4')) {
      assert.match(shown, new RegExp(`\\|${slug}> · migrated`));
    }
    assertFitsMessage(final.blocks);
  });

  it('lists owner/* on the old deployment with the user’s own token there', async () => {
    const channelId = freshChannel();
    for (const slug of ['team/a', 'team/b', 'team/c']) addRepoOnBoth(h, slug);
    const confirmation = await askToMigrate(h, 'team/*', { channelId });
    assert.match(shownText(confirmation), /Move 3 repositories/);
    const listing = h.orgCi?.requests.filter(
      (r) => r.path === '/repos' && r.query.get('owner_name') === 'team',
    );
    assert.equal(listing?.at(-1)?.headers.authorization, 'token token-rkh');
    await confirm(h, confirmation, { channelId });
    assert.match(progressText(await finalMessage(h, channelId)), /3 migrated, 0 failed/);

    // Moved ones are left out the next time.
    const again = await askToMigrate(h, 'team/*', { channelId: freshChannel() });
    assert.match(shownText(again), /Every repository you named has moved to travis-ci\.com already/);
  });

  it('reports a repository that was already migrating or migrated as such, not as a failure', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'octo/done-before', { migrationStatus: 'migrated', migrated: true });
    const final = await migrate(h, 'octo/done-before', { channelId });
    const shown = progressText(final);
    assert.match(shown, /:information_source: <[^|]+\|octo\/done-before> · already migrating or migrated/);
    assert.match(shown, /0 migrated, 0 failed, 1 already migrated in/);
  });

  it('says in a plain sentence when the account may not migrate a repository', async () => {
    const channelId = freshChannel();
    const repo = h.ci.state.addRepo({ slug: 'other/locked' });
    h.ci.state.grant('rkh', repo.id, 'push');
    const shown = progressText(await migrate(h, 'other/locked', { channelId }));
    assert.match(
      shown,
      /:x: <[^|]+\|other\/locked> · Your travis-ci\.com account \(rkh\) is not allowed to migrate other\/locked \(it needs migrate access\)\./,
    );
    assert.match(shown, /0 migrated, 1 failed in/);
    assert.equal(repo.migrationStatus, null);
  });

  it('says when a repository cannot be found on the new deployment', async () => {
    const channelId = freshChannel();
    const shown = progressText(await migrate(h, 'nobody/nothing', { channelId }));
    assert.match(
      shown,
      /I could not find nobody\/nothing on travis-ci\.com, or your travis-ci\.com account \(rkh\) cannot see it/,
    );
  });

  it('addresses slugs with dots, dashes and underscores with the slash encoded, and ids as they are', async () => {
    const channelId = freshChannel();
    const slugs = ['my-org/site.io', 'my-org/lib_x', 'a-b/c.d-e_f'];
    for (const slug of slugs) addRepoOnBoth(h, slug);
    const byId = h.ci.state.addRepo({ slug: 'ids/by-id' });
    h.ci.state.grant('rkh', byId.id, 'admin');
    const before = migrateRequests().length;
    const shown = progressText(await migrate(h, `${slugs.join(' ')} ${byId.id}`, { channelId }));
    assert.match(shown, /4 migrated, 0 failed/);
    assert.match(shown, /\|ids\/by-id> · migrated/, 'the id is named by its slug once the service answered');
    assert.deepEqual(
      migrateRequests()
        .slice(before)
        .map((r) => r.path),
      [
        '/repo/my-org%2Fsite.io/migrate',
        '/repo/my-org%2Flib_x/migrate',
        '/repo/a-b%2Fc.d-e_f/migrate',
        `/repo/${byId.id}/migrate`,
      ],
    );
  });

  it('follows each final status the service may end in: migrated, success and failure', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'ends/migrated', { migrationPlan: ['queued', 'migrating', 'migrated'] });
    const { comId: successId } = addRepoOnBoth(h, 'ends/success', {
      migrationPlan: ['queued', 'migrating', 'success'],
    });
    addRepoOnBoth(h, 'ends/failure', { migrationPlan: ['queued', 'migrating', 'failure'] });
    const shown = progressText(await migrate(h, 'ends/migrated ends/success ends/failure', { channelId }));
    assert.match(shown, /\|ends\/migrated> · migrated/);
    assert.match(shown, /\|ends\/success> · success/);
    assert.match(shown, /\|ends\/failure> · failed/);
    assert.match(shown, /2 migrated, 1 failed in/);
    // Once the service answered, the repository is addressed by its id there.
    const polls = h.ci.requests.filter((r) => r.method === 'GET' && r.path === `/repo/${successId}`);
    assert.ok(polls.length >= 1, 'the status is read until it is final');
    assert.ok(polls.every((r) => r.headers.authorization === 'token token-rkh'));
  });

  it('goes on with the rest when the CI service is down for one repository, and says so', async () => {
    const channelId = freshChannel();
    for (const slug of ['down/first', 'down/second', 'down/third']) addRepoOnBoth(h, slug);
    h.ci.fault({ method: 'POST', path: '/repo/down%2Fsecond/migrate' }, { status: 503, times: 1 });
    const shown = progressText(await migrate(h, 'down/first down/second down/third', { channelId }));
    assert.match(shown, /\|down\/second> · travis-ci\.com is having trouble \(it answered 503\)/);
    assert.match(shown, /\|down\/first> · migrated/);
    assert.match(shown, /\|down\/third> · migrated/);
    assert.match(shown, /2 migrated, 1 failed in/);
  });

  it('keeps checking through a passing failure to read the status', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'flaky/status');
    h.ci.fault({ method: 'GET', path: '/repo/flaky%2Fstatus' }, { status: 503, times: 2 });
    assert.match(progressText(await migrate(h, 'flaky/status', { channelId })), /1 migrated, 0 failed/);
  });

  it('reads the status when a request’s answer was lost, and sends it again when it never arrived', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'lost/answer');
    h.ci.fault({ method: 'POST', path: '/repo/lost%2Fanswer/migrate' }, { drop: true, times: 1 });
    const before = migrateRequests().length;
    assert.match(progressText(await migrate(h, 'lost/answer', { channelId })), /1 migrated, 0 failed/);
    assert.equal(migrateRequests().length - before, 2, 'sent again once the status showed it never arrived');
    assert.ok(h.ci.requests.some((r) => r.method === 'GET' && r.path === '/repo/lost%2Fanswer'));
  });

  it('acknowledges at once and says so when the old deployment is too slow to list owner/*', async () => {
    h.orgCi?.fault({ method: 'GET', path: '/repos' }, { delayMs: 1_700, times: 2 });
    const { ack, responseUrl } = await h.command('migrate team/*', { channelId: freshChannel() });
    assert.ok(ack.ms < 1000, `ack took ${ack.ms} ms`);
    // The listing is tried twice (it is a read), each time up to the 1.5 s request timeout.
    const answer = await h.answer(responseUrl, 5_000);
    assert.match(shownText(answer), /travis-ci\.org did not answer in time\. Nothing was changed/);
  });

  it('asks an unlinked user to link the new deployment on confirm, and sends nothing', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'octo/unlinked');
    const confirmation = await askToMigrate(h, 'octo/unlinked', { channelId, userId: 'U0NOBODY' });
    const before = migrateRequests().length;
    const button = elementOf(confirmation, 'migration.confirm');
    const click = await h.click({
      actionId: button.action_id,
      value: button.value,
      channelId,
      userId: 'U0NOBODY',
    });
    const answer = await h.answer(click.responseUrl);
    assert.match(shownText(answer), /You have not linked your travis-ci\.com account yet/);
    const link = elementOf(answer, 'account.link');
    assert.equal(link.value, JSON.stringify({ d: 'com' }));
    assert.equal(migrateRequests().length, before);
  });

  it('asks for the old deployment’s link to list owner/*', async () => {
    const answer = await askToMigrate(h, 'team/*', { channelId: freshChannel(), userId: 'U0VISITOR' });
    assert.match(shownText(answer), /You have not linked your travis-ci\.org account yet/);
    assert.equal(elementOf(answer, 'account.link').value, JSON.stringify({ d: 'org' }));
  });

  it('answers malformed input with the usage, and refuses more than 50 repositories', async () => {
    const channelId = freshChannel();
    const bad = await askToMigrate(h, 'not a/repo/at/all', { channelId });
    assert.match(shownText(bad), /\/ci migrate/);
    const none = await askToMigrate(h, '', { channelId });
    assert.match(shownText(none), /\/ci migrate/);
    const many = Array.from({ length: 51 }, (_, i) => `many/r${i}`).join(' ');
    assert.match(shownText(await askToMigrate(h, many, { channelId })), /50/);
  });

  it('a used or canceled confirmation starts nothing', async () => {
    const channelId = freshChannel();
    addRepoOnBoth(h, 'octo/twice');
    const confirmation = await askToMigrate(h, 'octo/twice', { channelId });
    await confirm(h, confirmation, { channelId });
    const second = await confirm(h, confirmation, { channelId });
    assert.match(shownText(second), /expired or was used already/);
    await finalMessage(h, channelId);

    const other = await askToMigrate(h, 'octo/twice', { channelId: freshChannel() });
    const cancel = elementOf(other, 'migration.cancel');
    const click = await h.click({ actionId: cancel.action_id, value: cancel.value });
    assert.match(shownText(await h.answer(click.responseUrl)), /nothing was migrated/);
    assert.match(shownText(await confirm(h, other, { channelId })), /expired or was used already/);
  });

  it('sends the progress to the user directly where the app cannot post in the channel', async () => {
    const channelId = freshChannel();
    h.slack.setChannel(channelId, { is_member: false });
    addRepoOnBoth(h, 'octo/private-room');
    const confirmation = await askToMigrate(h, 'octo/private-room', { channelId });
    await confirm(h, confirmation, { channelId });
    const final = await finalMessage(h, 'DU0USER');
    assert.match(progressText(final), /\|octo\/private-room> · migrated/);
  });
});
