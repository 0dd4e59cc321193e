import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import type { Harness } from '../../helpers/app-harness.js';
import { assertSlackAccepted, elementOf, type Message, shownText } from '../../helpers/slack-messages.js';
import { addRepoOnBoth, freshChannel, migrate, startMigrationHarness } from './world.js';

const TEAM = FAKE_IDENTITY.teamId;

describe('subscriptions follow migrated repositories', () => {
  let h: Harness;
  before(async () => {
    h = await startMigrationHarness();
  });
  afterEach(() => assertSlackAccepted(h));
  after(() => h.close());

  async function subscribe(text: string, channelId: string): Promise<void> {
    const { responseUrl } = await h.command(`subscribe ${text}`, { channelId });
    assert.match(shownText(await h.answer(responseUrl)), /subscribed this channel/);
  }

  const offersIn = (channel: string) =>
    h.slack.callsTo('chat.postMessage').filter((c) => c.args.channel === channel && c.ok);
  const subsOf = (channel: string) => h.services.subscriptions.forChannel(TEAM, channel);

  async function clickMove(channel: string, userId?: string): Promise<Message> {
    const [offer] = offersIn(channel);
    assert.ok(offer, `an offer in ${channel}`);
    const ts = String((offer.response as { ts?: unknown } | undefined)?.ts ?? '');
    const move = elementOf(offer.args as Message, 'migration.move_subscription');
    const click = await h.click({
      actionId: move.action_id,
      value: move.value,
      channelId: channel,
      message: { ts },
      ...(userId ? { userId } : {}),
    });
    assert.ok(click.ack.ms < 1000);
    await h.slack.waitForCall('chat.update', (c) => c.args.channel === channel && c.args.ts === ts);
    const message = h.slack.messages(channel).find((m) => m.ts === ts);
    assert.ok(message);
    return message as unknown as Message;
  }

  it('asks the channel once, and one click moves the subscription with its filters', async () => {
    addRepoOnBoth(h, 'subs/one');
    const channel = freshChannel();
    await subscribe('subs/one only:failures branches:main --org', channel);
    const [oldSub] = await subsOf(channel);
    assert.equal(oldSub?.deployment, 'org');

    await migrate(h, 'subs/one', { channelId: freshChannel() });
    await h.slack.waitForCall('chat.postMessage', (c) => c.args.channel === channel);
    const [offer, ...more] = offersIn(channel);
    assert.deepEqual(more, []);
    const question = shownText(offer?.args as Message);
    assert.match(
      question,
      /\*subs\/one\* moved to travis-ci\.com\. This channel follows it on travis-ci\.org/,
    );
    assert.match(question, /only failures on `main`/);

    const comBefore = h.ci.requests.length;
    const answer = await clickMove(channel);
    assert.match(
      shownText(answer),
      /<@U0USER> moved this channel's subscription to <https:\/\/app\.travis-ci\.com\/github\/subs\/one\|subs\/one> from travis-ci\.org to travis-ci\.com \(only failures on `main`\)/,
    );
    const [moved, ...others] = await subsOf(channel);
    assert.deepEqual(others, [], 'the old subscription is gone');
    assert.equal(moved?.deployment, 'com');
    assert.deepEqual(moved?.filters, oldSub?.filters);
    assert.equal(moved?.createdBy, 'U0USER');
    const lookup = h.ci.requests.slice(comBefore).find((r) => r.path === '/repos/subs/one');
    assert.equal(lookup?.headers.authorization, 'token token-rkh', 'checked with the clicker’s token');

    // A second click finds nothing left to move.
    const [first] = offersIn(channel);
    const move = elementOf(first?.args as Message, 'migration.move_subscription');
    const again = await h.click({ actionId: move.action_id, value: move.value, channelId: channel });
    assert.match(shownText(await h.answer(again.responseUrl)), /not there any more/);
  });

  it('asks about owner/* once, and moves it as whoever clicks', async () => {
    addRepoOnBoth(h, 'fleet/a');
    addRepoOnBoth(h, 'fleet/b');
    const channel = freshChannel();
    await subscribe('fleet/* --org', channel);
    await migrate(h, 'fleet/a', { channelId: freshChannel() });
    await migrate(h, 'fleet/b', { channelId: freshChannel() });
    await h.slack.waitForCall('chat.postMessage', (c) => c.args.channel === channel);
    assert.equal(offersIn(channel).length, 1, 'one question for the subscription');

    await clickMove(channel, 'U0VISITOR');
    const [moved, ...others] = await subsOf(channel);
    assert.deepEqual(others, []);
    assert.equal(moved?.deployment, 'com');
    assert.equal(moved?.createdBy, 'U0VISITOR');
    assert.equal(moved?.target.kind, 'owner');
  });

  it('a clicker whose account cannot see the repository is told so, and nothing moves', async () => {
    addRepoOnBoth(h, 'hidden/thing', { private: true });
    const channel = freshChannel();
    await subscribe('hidden/thing --org', channel);
    await migrate(h, 'hidden/thing', { channelId: freshChannel() });
    await h.slack.waitForCall('chat.postMessage', (c) => c.args.channel === channel);
    const [offer] = offersIn(channel);
    const move = elementOf(offer?.args as Message, 'migration.move_subscription');
    const click = await h.click({
      actionId: move.action_id,
      value: move.value,
      channelId: channel,
      userId: 'U0VISITOR',
    });
    assert.match(
      shownText(await h.answer(click.responseUrl)),
      /could not find hidden\/thing on travis-ci\.com, or your travis-ci\.com account \(visitor\) cannot see it/,
    );
    const subs = await subsOf(channel);
    assert.deepEqual(
      subs.map((s) => s.deployment),
      ['org'],
    );
  });

  it('leaves channels of other repositories and of the new deployment alone', async () => {
    addRepoOnBoth(h, 'calm/moving');
    addRepoOnBoth(h, 'calm/other');
    const other = freshChannel();
    const already = freshChannel();
    await subscribe('calm/other --org', other);
    await subscribe('calm/moving', already);
    await migrate(h, 'calm/moving', { channelId: freshChannel() });
    assert.deepEqual(offersIn(other), []);
    assert.deepEqual(offersIn(already), []);
  });
});
