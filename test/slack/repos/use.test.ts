import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import {
  assertAckedAtOnce,
  type Harness,
  startLinkedHarness,
  visibleText,
} from '../../helpers/app-harness.js';
import { assertSlackAccepted, elementOf } from '../../helpers/slack-messages.js';

describe('/ci use', () => {
  let h: Harness;
  const channelId = 'C0USE';
  before(async () => {
    h = await startLinkedHarness();
  });
  after(() => h.close());

  const stored = () => h.services.channelDefaults.get(FAKE_IDENTITY.teamId, channelId);

  it('checks the repository with the user’s token, stores it with the deployment and announces it', async () => {
    const { ack, responseUrl } = await h.command('use 891', { channelId });
    assertAckedAtOnce(ack);
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'in_channel');
    assert.equal(
      answer.text,
      `<@${FAKE_IDENTITY.userId}> set this channel's repository to <https://app.travis-ci.com/github/rails/rails|rails/rails> on travis-ci.com: commands here may now leave it out.`,
    );
    const value = await stored();
    assert.equal(value?.repo, 'rails/rails');
    assert.equal(value?.deployment, 'com');
    assert.equal(value?.setBy, FAKE_IDENTITY.userId);
    assert.ok(
      h.ci.requests.some((r) => r.path === '/repos/891' && r.headers.authorization === 'token token-rkh'),
    );
  });

  it('lets commands in that channel leave the repository out', async () => {
    const { responseUrl } = await h.command('repo', { channelId });
    assert.match(visibleText(await h.answer(responseUrl)), /Ruby on Rails/);
  });

  it('shows the channel’s repository when none is given', async () => {
    const { responseUrl } = await h.command('use', { channelId });
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(
      String(answer.text),
      /This channel's repository is \*rails\/rails\* on travis-ci\.com, set by <@U0USER>/,
    );
  });

  it('stores nothing for a repository that is not there', async () => {
    const { responseUrl } = await h.command('use nobody/nothing', { channelId });
    assert.match(String((await h.answer(responseUrl)).text), /could not find nobody\/nothing/);
    assert.equal((await stored())?.repo, 'rails/rails');
  });

  it('stores nothing for a private repository the user cannot see', async () => {
    const { responseUrl } = await h.command('use rkh/secret-project', { channelId, userId: 'U0VISITOR' });
    assert.match(String((await h.answer(responseUrl)).text), /could not find rkh\/secret-project/);
    assert.equal((await stored())?.repo, 'rails/rails');
  });

  it('asks an unlinked user to link, without a CI call', async () => {
    const before = h.ci.requests.length;
    const { responseUrl } = await h.command('use rails/rails', { channelId: 'C0OTHER', userId: 'U0NOBODY' });
    elementOf(await h.answer(responseUrl), 'account.link');
    assert.equal(h.ci.requests.length, before);
    assert.equal(await h.services.channelDefaults.get(FAKE_IDENTITY.teamId, 'C0OTHER'), undefined);
  });

  it('refuses a repository together with --clear, and a malformed repository', async () => {
    for (const text of ['use rails/rails --clear', 'use not/a/repo']) {
      const { responseUrl } = await h.command(text, { channelId });
      assert.match(visibleText(await h.answer(responseUrl)), /\/ci use/, text);
    }
    assert.equal((await stored())?.repo, 'rails/rails');
  });

  it('with --quiet answers privately', async () => {
    const { responseUrl } = await h.command('use rkh/secret-project --quiet', { channelId });
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(String(answer.text), /now .*rkh\/secret-project/);
    assert.equal((await stored())?.repo, 'rkh/secret-project');
  });

  it('forgets the repository with --clear and announces it', async () => {
    const { responseUrl } = await h.command('use --clear', { channelId });
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'in_channel');
    assert.match(String(answer.text), /cleared this channel's repository \(it was \*rkh\/secret-project\*\)/);
    assert.equal(await stored(), undefined);
    const again = await h.command('use --clear', { channelId });
    assert.match(String((await h.answer(again.responseUrl)).text), /had no repository/);
    const show = await h.command('use', { channelId });
    assert.match(String((await h.answer(show.responseUrl)).text), /has no repository yet/);
    assertSlackAccepted(h);
  });
});
