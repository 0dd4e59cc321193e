import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { Harness } from '../../helpers/app-harness.js';
import {
  assertSlackAccepted,
  elementOf,
  hasElement,
  type Message,
  shownText,
} from '../../helpers/slack-messages.js';
import { addRepoOnBoth, freshChannel, migrate, startMigrationHarness } from './world.js';

describe('the old deployment is read-only for migrated repositories', () => {
  let h: Harness;
  let moved: { comId: number; orgId: number };
  before(async () => {
    h = await startMigrationHarness();
    moved = addRepoOnBoth(h, 'old/moved');
    addRepoOnBoth(h, 'old/staying');
    await migrate(h, 'old/moved', { channelId: freshChannel() });
  });
  afterEach(() => assertSlackAccepted(h));
  after(() => h.close());

  const orgWrites = () => (h.orgCi?.requests ?? []).filter((r) => r.method !== 'GET');

  async function run(text: string, userId?: string): Promise<Message> {
    const { ack, responseUrl } = await h.command(text, userId ? { userId } : {});
    assert.ok(ack.ms < 1000);
    return h.answer(responseUrl);
  }

  it('shows the build card of a migrated repository without Restart and Cancel', async () => {
    const build = h.orgCi?.state.addBuild(moved.orgId, { state: 'failed', jobs: 2 });
    assert.ok(build);
    const card = await run(`build ${build.id} --org`);
    assert.ok(!hasElement(card, 'build.restart'), 'no Restart build');
    assert.ok(!hasElement(card, 'build.cancel'), 'no Cancel build');
    assert.ok(!hasElement(card, 'job.restart') && !hasElement(card, 'job.cancel'), 'no job menus');
    assert.ok(hasElement(card, 'job.log'), 'logs can still be read');
    assert.match(shownText(card), /Moved to travis-ci\.com: read-only here/);

    const staying = h.orgCi?.state.getRepo('old/staying');
    assert.ok(staying);
    const other = h.orgCi?.state.addBuild(staying.id, { state: 'failed', jobs: 1 });
    assert.ok(
      hasElement(await run(`build ${other?.id} --org`), 'build.restart'),
      'other repositories keep theirs',
    );
  });

  it('previews pasted links of the old deployment without Restart and Cancel', async () => {
    const build = h.orgCi?.state.addBuild(moved.orgId, { state: 'started', jobs: 1 });
    assert.ok(build);
    const buildUrl = `https://app.travis-ci.org/github/old/moved/builds/${build.id}`;
    const jobUrl = `https://app.travis-ci.org/github/old/moved/jobs/${build.jobIds[0]}`;
    const messageTs = '1700000001.000100';
    await h.event({
      type: 'link_shared',
      channel: 'C0CHANNEL',
      is_bot_user_member: true,
      user: 'U0USER',
      message_ts: messageTs,
      links: [buildUrl, jobUrl].map((url) => ({ domain: 'app.travis-ci.org', url })),
    });
    const call = await h.slack.waitForCall('chat.unfurl', (c) => c.args.ts === messageTs);
    const previews = JSON.stringify(call.args.unfurls);
    assert.match(previews, /job\.log/);
    assert.doesNotMatch(previews, /build\.restart|build\.cancel|job\.restart|job\.cancel/);
  });

  it('refuses changes at once, before any request, and offers to run them on the new deployment', async () => {
    const build = h.orgCi?.state.addBuild(moved.orgId, { state: 'failed' });
    assert.ok(build);
    const commands = [
      `restart old/moved#${build.number}`,
      `cancel old/moved#${build.number}`,
      `restart ${build.id}`,
      'enable old/moved',
      'disable old/moved',
      'env old/moved set TOKEN',
      'env old/moved unset TOKEN',
      'settings old/moved',
      'caches old/moved delete',
      'pubkey old/moved --regenerate',
      'sshkey old/moved set',
      'sshkey old/moved delete',
    ];
    const before = orgWrites().length;
    for (const command of commands) {
      const answer = await run(`${command} --org`);
      assert.match(
        shownText(answer),
        /This repository now lives on travis-ci\.com; travis-ci\.org keeps it read-only, so I cannot/,
        command,
      );
      const rerun = elementOf(answer, 'command.rerun');
      assert.deepEqual(JSON.parse(rerun.value ?? ''), { d: 'com', text: `${command} --org` });
    }
    assert.equal(orgWrites().length, before, 'nothing was sent to change the old deployment');
    // Lookups are not changes.
    assert.doesNotMatch(shownText(await run('env old/moved --org')), /now lives on/);
  });

  it('runs the command again on the new deployment as whoever clicks', async () => {
    const refusal = await run('disable old/moved --org');
    const rerun = elementOf(refusal, 'command.rerun');
    const comBefore = h.ci.requests.length;
    const click = await h.click({ actionId: rerun.action_id, value: rerun.value });
    assert.ok(click.ack.ms < 1000);
    const answer = await h.answer(click.responseUrl);
    assert.equal(answer.response_type, 'in_channel');
    assert.match(shownText(answer), /<@U0USER> disabled .*old\/moved/);
    const sent = h.ci.requests.slice(comBefore).filter((r) => r.method === 'PUT');
    assert.equal(sent.length, 1);
    assert.equal(sent[0]?.headers.authorization, 'token token-rkh');
    assert.equal(h.ci.state.getRepo('old/moved')?.active, false);

    const asVisitor = await h.click({ actionId: rerun.action_id, value: rerun.value, userId: 'U0VISITOR' });
    assert.match(
      shownText(await h.answer(asVisitor.responseUrl)),
      /Your travis-ci\.com account \(visitor\) is not allowed to disable old\/moved/,
    );
  });

  it('turns the service’s own refusal into the same offer, and refuses at once from then on', async () => {
    const { orgId } = addRepoOnBoth(h, 'web/moved-elsewhere');
    const old = h.orgCi?.state.getRepo(orgId);
    assert.ok(old);
    old.migrated = true;
    const first = await run('enable web/moved-elsewhere --org');
    assert.match(shownText(first), /This repository now lives on travis-ci\.com/);
    assert.ok(hasElement(first, 'command.rerun'));
    const writes = orgWrites().length;
    const second = await run('disable web/moved-elsewhere --org');
    assert.match(shownText(second), /This repository now lives on travis-ci\.com/);
    assert.equal(orgWrites().length, writes, 'the second change was refused before any request');
  });

  it('says so for a Restart clicked on an old card of a migrated repository, without the request', async () => {
    const build = h.orgCi?.state.addBuild(moved.orgId, { state: 'failed' });
    assert.ok(build);
    const before = orgWrites().length;
    const click = await h.click({
      actionId: `build.restart:${build.id}`,
      value: JSON.stringify({ d: 'org', id: build.id }),
    });
    assert.match(shownText(await h.answer(click.responseUrl)), /now lives on travis-ci\.com/);
    assert.equal(orgWrites().length, before);
  });
});
