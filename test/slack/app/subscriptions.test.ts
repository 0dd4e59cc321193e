import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { ownCommitRecipients } from '../../../src/ops/notify-me.js';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import {
  assertAckedAtOnce,
  type Harness,
  startLinkedHarness,
  visibleText,
} from '../../helpers/app-harness.js';

const TEAM = FAKE_IDENTITY.teamId;
const USER = FAKE_IDENTITY.userId;

describe('/ci subscribe, unsubscribe, subscriptions, notify me', () => {
  let h: Harness;
  let channelCount = 0;
  /** A channel of its own for each test, so tests do not see each other's subscriptions. */
  const freshChannel = () => `CSUBS${++channelCount}`;

  before(async () => {
    h = await startLinkedHarness();
    h.ci.state.addRepo({ slug: 'rkh/tools', id: 9002 });
    h.ci.state.addRepo({ slug: 'rkh/hidden', id: 9003, private: true });
    h.ci.state.addRepo({ slug: 'hush/vault', private: true });
  });
  after(() => h.close());

  /** Runs `/ci <text>` in a channel and returns the first answer. */
  async function run(text: string, options: { channelId?: string; userId?: string } = {}) {
    const { ack, responseUrl } = await h.command(text, options);
    assert.equal(ack.status, 200);
    return { ack, answer: await h.answer(responseUrl) };
  }

  const subsOf = (channelId: string) => h.services.subscriptions.forChannel(TEAM, channelId);
  const ciRequestsTo = (path: string) => h.ci.requests.filter((r) => r.path === path);

  it('subscribes a channel to a repository with its own token and announces it in words', async () => {
    const channelId = freshChannel();
    const before = ciRequestsTo('/repos/rails/rails').length;
    const { ack, answer } = await run('subscribe rails/rails only:failures branches:main', { channelId });
    assertAckedAtOnce(ack);
    assert.equal(answer.response_type, 'in_channel');
    const text = visibleText(answer);
    assert.match(
      text,
      new RegExp(
        `<@${USER}> subscribed this channel to <https://app\\.travis-ci\\.com/github/rails/rails\\|rails/rails>`,
      ),
    );
    assert.match(text, /only failures on `main`/);
    const requests = ciRequestsTo('/repos/rails/rails').slice(before);
    assert.equal(requests.length, 1);
    assert.equal(requests[0]?.headers.authorization, 'token token-rkh');

    const [sub, ...others] = await subsOf(channelId);
    assert.deepEqual(others, []);
    assert.deepEqual(sub?.target, { kind: 'repo', repoId: 891, slug: 'rails/rails' });
    assert.deepEqual(sub?.filters, { only: 'failures', branches: ['main'] });
    assert.equal(sub?.createdBy, USER);
    assert.equal(sub?.deployment, 'com');
    assert.equal(sub?.status, 'active');
    assert.deepEqual(h.slack.rejected(), []);
  });

  it('subscribing again replaces the filters and says so', async () => {
    const channelId = freshChannel();
    await run('subscribe rails/rails only:failures', { channelId });
    const { answer } = await run('subscribe rails/rails events:push,cron threads:off', { channelId });
    const text = visibleText(answer);
    assert.match(text, /replaced this channel's subscription to/);
    assert.match(
      text,
      /now every build; events: push, cron; failure logs in the channel \(before: only failures\)/,
    );
    const subs = await subsOf(channelId);
    assert.equal(subs.length, 1);
    assert.deepEqual(subs[0]?.filters, { events: ['push', 'cron'], threads: false });
  });

  it('answers only the subscriber with --quiet', async () => {
    const channelId = freshChannel();
    const { answer } = await run('subscribe rails/rails started:on --quiet', { channelId });
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(
      visibleText(answer),
      /Subscribed this channel to .*rails\/rails.*: every build; shown from the start of each build/,
    );
    assert.equal((await subsOf(channelId)).length, 1);
  });

  it('subscribes owner/* to every repository of the owner the subscriber can see', async () => {
    const channelId = freshChannel();
    const { answer } = await run('subscribe rkh/* only:changes', { channelId });
    const text = visibleText(answer);
    assert.match(text, /subscribed this channel to every repository of \*rkh\* they can see \(2\)/);
    assert.match(text, /rkh\/secret-project, rkh\/tools/);
    assert.doesNotMatch(text, /rkh\/hidden/);
    const listing = h.ci.requests.filter((r) => r.path === '/repos' && r.query.get('owner_name') === 'rkh');
    assert.equal(listing.at(-1)?.headers.authorization, 'token token-rkh');

    const [sub] = await subsOf(channelId);
    assert.deepEqual(sub?.target, {
      kind: 'owner',
      owner: 'rkh',
      repos: [
        { id: 9001, slug: 'rkh/secret-project' },
        { id: 9002, slug: 'rkh/tools' },
      ],
    });
    const watched = await h.services.subscriptions.watched('com');
    assert.ok(watched.get(9001)?.some((s) => s.id === sub?.id));
    assert.ok(watched.get(9002)?.some((s) => s.id === sub?.id));
    assert.ok(!watched.has(9003));
  });

  it('refuses an owner with no repository the subscriber can see', async () => {
    const channelId = freshChannel();
    const { answer } = await run('subscribe hush/*', { channelId, userId: 'U0VISITOR' });
    assert.match(visibleText(answer), /found no repositories of hush that your account can see/);
    assert.deepEqual(await subsOf(channelId), []);
  });

  it('tells an unlinked user to link, without calling the CI service', async () => {
    const channelId = freshChannel();
    const before = h.ci.requests.length;
    const { answer } = await run('subscribe rails/rails', { channelId, userId: 'U0NOBODY' });
    assert.match(visibleText(answer), /not linked your travis-ci\.com account/);
    assert.match(visibleText(answer), /account\.link/);
    assert.equal(h.ci.requests.length, before);
    assert.deepEqual(await subsOf(channelId), []);
  });

  it('says a repository that does not exist, or cannot be seen, was not found', async () => {
    const channelId = freshChannel();
    const missing = await run('subscribe rails/nope', { channelId });
    assert.match(visibleText(missing.answer), /could not find rails\/nope on travis-ci\.com/);
    const hidden = await run('subscribe rkh/secret-project', { channelId, userId: 'U0VISITOR' });
    assert.match(visibleText(hidden.answer), /could not find rkh\/secret-project on travis-ci\.com/);
    assert.deepEqual(await subsOf(channelId), []);
  });

  it('passes the parser’s explanation of a malformed filter to the user', async () => {
    const channelId = freshChannel();
    const before = h.ci.requests.length;
    const bad = await run('subscribe rails/rails only:everything', { channelId });
    assert.match(visibleText(bad.answer), /only:failures or only:changes/);
    const unknown = await run('subscribe rails/rails colour:red', { channelId });
    assert.match(visibleText(unknown.answer), /not a filter/);
    assert.equal(h.ci.requests.length, before);
    assert.deepEqual(await subsOf(channelId), []);
  });

  it('explains a CI service that is down or slow, after a fast ack', async () => {
    const channelId = freshChannel();
    h.ci.fault({ method: 'GET', path: '/repos/rails/rails' }, { status: 503, times: 2 });
    const down = await run('subscribe rails/rails', { channelId });
    assert.match(visibleText(down.answer), /travis-ci\.com is having trouble/);

    h.ci.fault({ method: 'GET', path: '/repos/rails/rails' }, { delayMs: 2_500, times: 2 });
    const { ack, responseUrl } = await h.command('subscribe rails/rails', { channelId });
    assertAckedAtOnce(ack);
    assert.match(visibleText(await h.answer(responseUrl, 8_000)), /did not answer in time/);
    h.ci.clearFaults();
    assert.deepEqual(await subsOf(channelId), []);
  });

  it('asks to invite the bot into a channel it is not a member of, and stores nothing', async () => {
    const channelId = freshChannel();
    h.slack.setChannel(channelId, { is_member: false });
    const before = h.ci.requests.length;
    const { answer } = await run('subscribe rails/rails', { channelId });
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(visibleText(answer), new RegExp(`/invite <@${FAKE_IDENTITY.botUserId}>`));
    assert.equal(h.ci.requests.length, before);
    assert.deepEqual(await subsOf(channelId), []);

    h.slack.setChannel(channelId, { is_member: true });
    const retried = await run('subscribe rails/rails', { channelId });
    assert.match(visibleText(retried.answer), /subscribed this channel/);
  });

  it('refuses a conversation the bot cannot see, and an archived channel', async () => {
    const hidden = freshChannel();
    h.slack.failNext('conversations.info', 'channel_not_found');
    const notVisible = await run('subscribe rails/rails', { channelId: hidden });
    assert.match(visibleText(notVisible.answer), /cannot see this conversation/);
    assert.deepEqual(await subsOf(hidden), []);

    const archived = freshChannel();
    h.slack.setChannel(archived, { is_archived: true });
    const refused = await run('subscribe rails/rails', { channelId: archived });
    assert.match(visibleText(refused.answer), /archived/);
    assert.deepEqual(await subsOf(archived), []);
  });

  it('subscribes a direct message with the bot', async () => {
    const channelId = `D${USER}`;
    const { answer } = await run('subscribe rails/rails --quiet', { channelId });
    assert.match(visibleText(answer), /Subscribed this channel/);
    assert.equal((await subsOf(channelId)).length, 1);
  });

  it('keeps mentions in filters inert', async () => {
    const channelId = freshChannel();
    const { answer } = await run('subscribe rails/rails branches:<!channel> exclude-authors:<@U123>', {
      channelId,
    });
    const text = visibleText(answer);
    assert.doesNotMatch(text, /<!channel>|<@U123>/);
    assert.match(text, /`@\u2060channel`/);
  });

  it('unsubscribes, announcing it, and says when there was nothing to remove', async () => {
    const channelId = freshChannel();
    await run('subscribe rails/rails', { channelId });
    await run('subscribe rkh/*', { channelId });
    const { answer } = await run('unsubscribe rails/rails', { channelId, userId: 'U0VISITOR' });
    assert.equal(answer.response_type, 'in_channel');
    assert.match(visibleText(answer), /<@U0VISITOR> unsubscribed this channel from .*rails\/rails/);
    assert.deepEqual(
      (await subsOf(channelId)).map((s) => s.target.kind),
      ['owner'],
    );
    const again = await run('unsubscribe rails/rails', { channelId });
    assert.match(visibleText(again.answer), /not subscribed to rails\/rails/);
    const owner = await run('unsubscribe RKH/* --quiet', { channelId });
    assert.equal(owner.answer.response_type, 'ephemeral');
    assert.match(visibleText(owner.answer), /Unsubscribed this channel from `rkh\/\*`/);
    assert.deepEqual(await subsOf(channelId), []);
  });

  it('takes a repository id to subscribe and any spelling of the slug to unsubscribe', async () => {
    const channelId = freshChannel();
    await run('subscribe 891 --quiet', { channelId });
    assert.deepEqual(
      (await subsOf(channelId)).map((s) => s.target),
      [{ kind: 'repo', repoId: 891, slug: 'rails/rails' }],
    );
    await run('unsubscribe Rails/Rails --quiet', { channelId });
    assert.deepEqual(await subsOf(channelId), []);
  });

  it('lists the channel’s subscriptions with filters, creator and status, paused ones with why', async () => {
    const channelId = freshChannel();
    const empty = await run('subscriptions', { channelId });
    assert.match(visibleText(empty.answer), /no subscriptions/);

    await run('subscribe rails/rails only:failures', { channelId });
    await run('subscribe rkh/* --quiet', { channelId });
    const rails = (await subsOf(channelId)).find((s) => s.target.kind === 'repo');
    assert.ok(rails);
    assert.equal(await h.services.subscriptions.pause(rails.id, 'token_rejected'), true);

    const { answer } = await run('subscriptions', { channelId });
    assert.equal(answer.response_type, 'ephemeral');
    const text = visibleText(answer);
    assert.match(
      text,
      /rails\/rails.* on travis-ci\.com: only failures · by <@U0USER> · .*paused.*CI token stopped working/,
    );
    assert.match(text, /`rkh\/\*` \(2 repositories\) on travis-ci\.com: every build · by <@U0USER>/);

    const resumed = await run('subscribe rails/rails only:failures', { channelId });
    assert.match(visibleText(resumed.answer), /was paused and is active again/);
    assert.equal((await h.services.subscriptions.get(rails.id))?.status, 'active');
    assert.doesNotMatch(visibleText((await run('subscriptions', { channelId })).answer), /paused/);
    assert.deepEqual(
      h.slack.rejected().filter((c) => c.method !== 'conversations.info'),
      [],
    );
  });

  it('turns direct messages about your own commits on and off', async () => {
    const on = await run('notify me on');
    assert.equal(on.answer.response_type, 'ephemeral');
    assert.match(
      visibleText(on.answer),
      /Direct messages are on.*\*rkh\*, konstantin\.haase@gmail\.com on travis-ci\.com/,
    );
    assert.deepEqual(await h.services.notifyPrefs.get(TEAM, USER).then((p) => p?.identities), [
      { deployment: 'com', ciLogin: 'rkh', email: 'konstantin.haase@gmail.com' },
    ]);
    assert.match(visibleText((await run('notify me on')).answer), /Direct messages stay on/);

    // What the notifier will ask: who gets a direct message about a build of this commit?
    const byEmail = { authorName: 'Konstantin Haase', authorEmail: 'Konstantin.Haase@gmail.com' };
    assert.deepEqual(await ownCommitRecipients(h.services, TEAM, 'com', byEmail), [USER]);
    const byLogin = { authorName: 'Someone', authorEmail: '267+rkh@users.noreply.github.com' };
    assert.deepEqual(await ownCommitRecipients(h.services, TEAM, 'com', byLogin), [USER]);
    const stranger = { authorName: 'Vera Visitor', authorEmail: 'vera@example.com' };
    assert.deepEqual(await ownCommitRecipients(h.services, TEAM, 'com', stranger), []);
    assert.deepEqual(await ownCommitRecipients(h.services, TEAM, 'org', byEmail), []);

    const off = await run('notify me off');
    assert.match(visibleText(off.answer), /are off/);
    assert.equal(await h.services.notifyPrefs.isOn(TEAM, USER), false);
    assert.match(visibleText((await run('notify me off')).answer), /already off/);
    assert.deepEqual(await ownCommitRecipients(h.services, TEAM, 'com', byEmail), []);
  });

  it('needs a linked account to turn direct messages on', async () => {
    const before = h.ci.requests.length;
    const { answer } = await run('notify me on', { userId: 'U0NOBODY' });
    assert.match(visibleText(answer), /not linked your travis-ci\.com account/);
    assert.equal(h.ci.requests.length, before);
    assert.equal(await h.services.notifyPrefs.isOn(TEAM, 'U0NOBODY'), false);
    const usage = await run('notify me maybe');
    assert.match(visibleText(usage.answer), /on|off/);
  });

  it('shows the channel subscriptions a user created on their App Home', async () => {
    const channelId = freshChannel();
    await run('subscribe rails/rails only:failures --quiet', { channelId });
    const ack = await h.event({ type: 'app_home_opened', user: USER, tab: 'home', channel: `D${USER}` });
    assert.equal(ack.status, 200);
    const call = await h.slack.waitForCall(
      'views.publish',
      (c) => JSON.stringify(c.args).includes(channelId),
      3_000,
    );
    assert.equal(call.ok, true, `views.publish failed: ${call.error}`);
    const home = JSON.stringify(call.args);
    assert.match(home, /Channel subscriptions you created/);
    assert.match(
      home,
      new RegExp(
        `<#${channelId}> · <https://app\\.travis-ci\\.com/github/rails/rails\\|rails/rails> on travis-ci\\.com: only failures`,
      ),
    );
    assert.deepEqual(
      h.slack.rejected().filter((c) => c.method !== 'conversations.info'),
      [],
    );
  });
});
