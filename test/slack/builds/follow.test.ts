import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { cleanLog, splitLines } from '../../../src/ci/log-text/index.js';
import { ACTIONS, encodeValue } from '../../../src/slack/ids.js';
import type { PusherMessage } from '../../fakes/ci/index.js';
import { type FakePusher, startFakePusher } from '../../fakes/pusher-server.js';
import type { SlackCall } from '../../fakes/slack/index.js';
import { type Harness, startHarness } from '../../helpers/app-harness.js';
import { elementOf, hasElement, shownText } from '../../helpers/slack-messages.js';
import { shownLines } from '../../realtime/follow-world.js';

/** `/ci logs <job> --follow` and the Follow buttons, from outside: signed requests in, Slack out. */
describe('following a job live from Slack', () => {
  let h: Harness;
  let pusher: FakePusher;
  const forward = (m: PusherMessage) => pusher.trigger(m.channel, m.event, m.data);
  before(async () => {
    pusher = await startFakePusher({ key: 'e2e-key', secret: 'e2e-secret' });
    h = await startHarness({
      fakeCi: {
        pusher: { key: 'e2e-key', secret: 'e2e-secret', host: '127.0.0.1', port: pusher.port, scheme: 'ws' },
      },
      env: { LOG_UPDATE_INTERVAL_MS: '200' },
    });
    h.ci.events.on('pusher', forward);
    await h.link();
    await h.link({ userId: 'U0VISITOR', login: 'visitor' });
  });
  // C0OUTSIDE refuses posts on purpose (the bot is not a member there).
  afterEach(() =>
    assert.deepEqual(
      h.slack.rejected().filter((c) => c.args.channel !== 'C0OUTSIDE'),
      [],
    ),
  );
  after(async () => {
    h.ci.events.off('pusher', forward);
    await h.close();
    await pusher.close();
  });

  const runningJob = (repo = 'rails/rails') => {
    const build = h.ci.state.addBuild(repo, { state: 'started', jobs: 2 });
    const jobId = build.jobIds[0] ?? 0;
    return { build, jobId, number: `${build.number}.1` };
  };
  const finalEdit = (ts: string): Promise<SlackCall> =>
    h.slack.waitForCall(
      'chat.update',
      (c) => c.args.ts === ts && !String(c.args.text).includes('*Live log*'),
      5_000,
    );

  it('follows a job from /ci logs --follow in a thread, to its final state', async () => {
    const { jobId, number } = runningJob();
    h.ci.state.appendLogPart(jobId, '$ bundle install\n');
    const { ack, responseUrl } = await h.command(`logs rails/rails#${number} --follow`, {
      channelId: 'C0E2E',
    });
    assert.ok(ack.ms < 1000, `ack took ${ack.ms} ms`);
    const reply = await h.answer(responseUrl);
    assert.equal(reply.response_type, 'ephemeral');
    assert.match(
      String(reply.text),
      new RegExp(
        `^Following job <[^|]+/jobs/${jobId}\\|#${number.replace('.', '\\.')}> of rails/rails live in <https://[^|]+\\?thread_ts=[^|]+\\|a thread in this channel>`,
      ),
    );

    const [parent, tail] = h.slack.messages('C0E2E');
    assert.match(String(parent?.text), /^<@U0USER> is following job <[^>]+> of rails\/rails\.$/);
    assert.ok(tail && tail.thread_ts === parent?.ts, 'the tail is a reply in the thread');
    await pusher.waitForSubscription(`job-${jobId}`);

    const parts = ['$ bundle install\n'];
    for (let n = 1; n < 120; n++) parts.push(`spec ${n} <!here>\n`);
    for (let n = 1; n < parts.length; n++) h.ci.state.appendLogPart(jobId, parts[n] ?? '', { number: n });
    h.ci.state.updateJob(jobId, { state: 'passed' });
    h.ci.state.appendLogPart(jobId, 'Done.\n', { number: parts.length, final: true });
    parts.push('Done.\n');

    const text = String((await finalEdit(tail.ts)).args.text);
    assert.match(
      text,
      /^:white_check_mark: \*Job <[^>]+> of rails\/rails passed\* in \d+s · <[^|]+\|Full log on travis-ci\.com>\n/,
    );
    const expected = splitLines(cleanLog(parts.join('')))
      .slice(-40)
      .map((line) => line.replace('<!here>', '&lt;!here&gt;'));
    assert.deepEqual(shownLines(text), expected);
    await pusher.waitFor(() => !pusher.subscriptions().has(`job-${jobId}`), 'the channel to be left');
  });

  it('points at the existing thread when the job is already followed in the channel', async () => {
    const { jobId } = runningJob();
    await h.answer((await h.command(`logs ${jobId} --follow`, { channelId: 'C0AGAIN' })).responseUrl);
    const posts = h.slack.callsTo('chat.postMessage').length;
    const again = await h.answer(
      (await h.command(`logs ${jobId} --follow`, { channelId: 'C0AGAIN' })).responseUrl,
    );
    assert.match(String(again.text), /is already followed in this channel: see <https:[^|]+\|its thread>/);
    assert.equal(h.slack.callsTo('chat.postMessage').length, posts);
  });

  it('stops following at /ci logs --stop from anyone in the channel, naming them in the thread', async () => {
    const { jobId, number } = runningJob();
    await h.answer((await h.command(`logs ${jobId} --follow`, { channelId: 'C0STOP' })).responseUrl);
    const tail = h.slack.messages('C0STOP')[1];
    assert.ok(tail, 'the tail is posted');
    await pusher.waitForSubscription(`job-${jobId}`);
    h.ci.state.appendLogPart(jobId, 'before the stop\n');
    await h.slack.waitForCall(
      'chat.update',
      (c) => c.args.ts === tail.ts && String(c.args.text).includes('before the stop'),
      5_000,
    );

    const { ack, responseUrl } = await h.command(`logs rails/rails#${number} --stop`, {
      channelId: 'C0STOP',
      userId: 'U0VISITOR',
    });
    assert.ok(ack.ms < 1000);
    assert.match(
      String((await h.answer(responseUrl)).text),
      /^Stopping the live log of job <[^>]+> of rails\/rails in this channel/,
    );
    const stopped = await finalEdit(tail.ts);
    assert.match(
      String(stopped.args.text),
      /^:double_vertical_bar: \*Stopped following job <[^>]+> of rails\/rails\*: <@U0VISITOR> stopped it\./,
    );
    await pusher.waitFor(() => !pusher.subscriptions().has(`job-${jobId}`), 'the channel to be left');

    const edits = h.slack.callsTo('chat.update').length;
    h.ci.state.appendLogPart(jobId, 'after the stop\n');
    await new Promise((resolve) => setTimeout(resolve, 500)); // two update intervals
    assert.equal(h.slack.callsTo('chat.update').length, edits, 'no edit after the stop');

    const again = await h.answer(
      (await h.command(`logs ${jobId} --stop`, { channelId: 'C0STOP' })).responseUrl,
    );
    assert.equal(again.text, `Job ${jobId} is not followed in this channel, so there is nothing to stop.`);
  });

  it('puts a Follow button beside the Log button of running jobs; it follows as the person who clicks', async () => {
    const { build, jobId } = runningJob();
    h.ci.state.updateJob(build.jobIds[1] ?? 0, { state: 'passed' });
    const card = await h.answer((await h.command(`build ${build.id}`)).responseUrl);
    const follow = elementOf(card, 'job.follow');
    assert.equal(follow.value, encodeValue(ACTIONS.followLog, { d: 'com', id: jobId }));
    assert.ok(hasElement(card, `job.log:${build.jobIds[1]}`));
    assert.equal(hasElement(card, `job.follow:${build.jobIds[1]}`), false, 'a finished job has no Follow');

    const { ack, responseUrl } = await h.click({
      actionId: follow.action_id,
      value: follow.value ?? '',
      channelId: 'C0CLICK',
      userId: 'U0USER',
    });
    assert.ok(ack.ms < 1000);
    assert.match(String((await h.answer(responseUrl)).text), /^Following job/);
    assert.equal(h.slack.messages('C0CLICK').length, 2, 'parent line and tail');
    assert.match(String(h.slack.messages('C0CLICK')[0]?.text), /^<@U0USER> is following/);
  });

  it('refuses a user who cannot see a private job, before anything is posted', async () => {
    const { jobId } = runningJob('rkh/secret-project');
    const posts = h.slack.callsTo('chat.postMessage').length;
    const { responseUrl } = await h.click({
      actionId: `job.follow:${jobId}`,
      value: encodeValue(ACTIONS.followLog, { d: 'com', id: jobId }),
      channelId: 'C0PRIVATE',
      userId: 'U0VISITOR',
    });
    assert.match(shownText(await h.answer(responseUrl)), /\(visitor\) cannot see it/);
    assert.equal(h.slack.callsTo('chat.postMessage').length, posts);

    const requestsBefore = h.ci.requests.length;
    const unlinked = await h.answer(
      (await h.command(`logs ${jobId} --follow`, { userId: 'U0NOBODY', channelId: 'C0PRIVATE' })).responseUrl,
    );
    assert.ok(hasElement(unlinked, 'account.link'), 'an unlinked user is offered to link');
    assert.equal(h.ci.requests.length, requestsBefore, 'and no CI request is sent for them');
    assert.equal(h.slack.callsTo('chat.postMessage').length, posts);
  });

  it('follows a private job with the token of whoever asked', async () => {
    const { jobId } = runningJob('rkh/secret-project');
    await h.answer((await h.command(`logs ${jobId} --follow`, { channelId: 'C0SECRET' })).responseUrl);
    await pusher.waitForSubscription(`private-job-${jobId}`);
    const auth = h.ci.requests.filter(
      (r) => r.path === '/pusher/auth' && r.body.includes(`private-job-${jobId}`),
    );
    assert.deepEqual(
      auth.map((r) => r.headers.authorization),
      ['token token-rkh'],
    );
    const tail = h.slack.messages('C0SECRET')[1];
    assert.ok(tail);
    h.ci.state.updateJob(jobId, { state: 'canceled' });
    h.ci.state.appendLogPart(jobId, 'stopped\n', { final: true });
    assert.match(String((await finalEdit(tail.ts)).args.text), /^:no_entry_sign: \*Job .* canceled\*/);
  });

  it('answers a CI failure with a clear sentence, and posts nothing', async () => {
    const { jobId } = runningJob();
    const posts = h.slack.callsTo('chat.postMessage').length;
    h.ci.fault({ method: 'GET', path: `/jobs/${jobId}` }, { status: 503, times: 4 });
    const { ack, responseUrl } = await h.command(`logs ${jobId} --follow`, { channelId: 'C0DOWN' });
    assert.ok(ack.ms < 1000);
    assert.match(shownText(await h.answer(responseUrl)), /travis-ci\.com is having trouble/);
    assert.equal(h.slack.callsTo('chat.postMessage').length, posts);
    h.ci.clearFaults();
  });

  it('says plainly when it cannot post in the channel', async () => {
    const { jobId } = runningJob();
    h.slack.setChannel('C0OUTSIDE', { is_member: false });
    const { responseUrl } = await h.command(`logs ${jobId} --follow`, { channelId: 'C0OUTSIDE' });
    assert.match(shownText(await h.answer(responseUrl)), /I cannot post in this conversation/);
    assert.deepEqual(
      h.slack.rejected().map((c) => [c.method, c.error]),
      [['chat.postMessage', 'not_in_channel']],
    );
  });
});
