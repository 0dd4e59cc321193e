import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { FollowOutcome } from '../../src/realtime/log-follower.js';
import { followId } from '../../src/store/follows.js';
import { type FollowWorld, RKH, shownLines, startFollowWorld, TEAM, waitUntil } from './follow-world.js';

function placementOf(outcome: FollowOutcome) {
  if (outcome.kind !== 'started') throw new Error(`expected a started follow, got ${outcome.kind}`);
  return outcome.placement;
}

const lines = (from: number, to: number) =>
  Array.from({ length: to - from }, (_, i) => `line ${String(from + i).padStart(3, '0')}`);

describe('LogFollower: limits, restarts and replicas', () => {
  let w: FollowWorld;
  /** Calls Slack refused on purpose (a deleted message). */
  const meantToFail = new Set<unknown>();
  before(async () => {
    w = await startFollowWorld();
  });
  afterEach(() =>
    assert.deepEqual(
      w.slack.rejected().filter((c) => !meantToFail.has(c)),
      [],
    ),
  );
  after(() => w.close());

  it('tells the user plainly past the per-process cap, and posts nothing', async () => {
    const follower = w.follower({ ownerId: 'capped', timing: { maxFollowedJobs: 1 } });
    const first = w.runningJob();
    const second = w.runningJob();
    placementOf(
      await follower.follow({ deployment: 'com', jobId: first.jobId, actor: RKH, channelId: 'C0CAP' }),
    );
    const posts = w.slack.callsTo('chat.postMessage').length;
    const refused = await follower.follow({
      deployment: 'com',
      jobId: second.jobId,
      actor: RKH,
      channelId: 'C0CAP',
    });
    assert.deepEqual(refused, { kind: 'at_capacity', max: 1 });
    assert.equal(w.slack.callsTo('chat.postMessage').length, posts);
    assert.equal(follower.size, 1);

    // Once the first job ends, there is room again.
    w.ci.state.updateJob(first.jobId, { state: 'passed' });
    w.ci.state.appendLogPart(first.jobId, 'bye\n', { final: true });
    await waitUntil(() => follower.size === 0, 'the first follow to end');
    const later = await follower.follow({
      deployment: 'com',
      jobId: second.jobId,
      actor: RKH,
      channelId: 'C0CAP2',
    });
    assert.equal(later.kind, 'started');
    w.ci.state.updateJob(second.jobId, { state: 'passed' });
    w.ci.state.appendLogPart(second.jobId, 'bye\n', { final: true });
    await waitUntil(() => follower.size === 0, 'the second follow to end');
    await follower.stop();
  });

  it('is continued by another process when its owner dies, from REST first, in the same message', async () => {
    const lease = { leaseTtlMs: 300, scanIntervalMs: 100 };
    const first = w.follower({ ownerId: 'dies', timing: lease });
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await first.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0DIES' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    for (const line of lines(0, 10)) w.ci.state.appendLogPart(jobId, `${line}\n`);
    await w.edit(placement.messageTs, /line 009\n```$/);

    await first.stop({ handOver: false }); // as if killed: its lease is left to lapse
    const diedAt = Date.now();
    for (const line of lines(10, 20)) w.ci.state.appendLogPart(jobId, `${line}\n`); // heard by nobody
    const second = w.follower({ ownerId: 'survivor', timing: lease });
    await second.start();
    await w.edit(placement.messageTs, /line 019\n```$/);
    assert.ok(Date.now() - diedAt < 2 * lease.leaseTtlMs + 500, `taken over after ${Date.now() - diedAt} ms`);
    assert.equal(second.size, 1);

    await w.pusher.waitForSubscription(`job-${jobId}`);
    w.ci.state.updateJob(jobId, { state: 'passed' });
    for (const line of lines(20, 25)) w.ci.state.appendLogPart(jobId, `${line}\n`);
    w.ci.state.appendLogPart(jobId, 'the end\n', { final: true });
    const final = await w.finalEdit(placement.messageTs);
    assert.deepEqual(shownLines(String(final.args.text)), [...lines(0, 25), 'the end']);
    assert.equal(w.slack.messages('C0DIES').length, 2, 'the same parent and tail, nothing posted again');
    const id = followId({ deployment: 'com', jobId, teamId: TEAM, channelId: 'C0DIES' });
    await waitUntil(
      async () => (await w.follows.get(id)) === undefined,
      'a finished follow to leave no record',
    );
    await second.stop();
  });

  it('ends a follow asked to stop through another process at the holder’s next lease renewal', async () => {
    const lease = { leaseTtlMs: 300 };
    const holder = w.follower({ ownerId: 'stop-holder', timing: lease });
    const other = w.follower({ ownerId: 'stop-other', timing: lease });
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await holder.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0STOPX' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    const visitor = { teamId: TEAM, userId: 'U0ASKER' };
    const asked = await other.unfollow({ deployment: 'com', jobId, actor: visitor, channelId: 'C0STOPX' });
    assert.equal(asked.kind, 'stopping');
    assert.equal(other.size, 0);

    const stopped = await w.finalEdit(placement.messageTs);
    assert.match(
      String(stopped.args.text),
      /^:double_vertical_bar: \*Stopped following .*<@U0ASKER> stopped it\./,
    );
    assert.equal(holder.size, 0);
    await w.pusher.waitFor(() => !w.pusher.subscriptions().has(`job-${jobId}`), 'the channel to be left');
    const id = followId({ deployment: 'com', jobId, teamId: TEAM, channelId: 'C0STOPX' });
    await waitUntil(
      async () =>
        (await w.follows.get(id)) === undefined && (await w.follows.stopRequests([id]))[0] === undefined,
      'the record and the stop request to go',
    );
    assert.deepEqual(
      await other.unfollow({ deployment: 'com', jobId, actor: visitor, channelId: 'C0STOPX' }),
      { kind: 'not_followed' },
    );
    await holder.stop();
    await other.stop();
  });

  it('ends a follow asked to stop while its owner was dead, instead of continuing it', async () => {
    const lease = { leaseTtlMs: 200, scanIntervalMs: 100 };
    const first = w.follower({ ownerId: 'stop-dies', timing: lease });
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await first.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0STOPDEAD' }),
    );
    await first.stop({ handOver: false });
    const editsOfTail = () => w.slack.callsTo('chat.update').filter((c) => c.args.ts === placement.messageTs);
    const editsBefore = editsOfTail().length;
    const second = w.follower({ ownerId: 'stop-adopter', timing: lease });
    const asked = await second.unfollow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0STOPDEAD' });
    assert.equal(asked.kind, 'stopping');
    await second.start();
    const stopped = await w.finalEdit(placement.messageTs);
    assert.match(String(stopped.args.text), new RegExp(`<@${RKH.userId}> stopped it\\.`));
    assert.equal(second.size, 0, 'not continued');
    assert.equal(editsOfTail().length, editsBefore + 1, 'the stopped line is the only edit');
    await second.stop();
  });

  it('stops on shutdown without a final edit, and the next process continues at once', async () => {
    const first = w.follower({ ownerId: 'restarts' });
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await first.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0RESTART' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    w.ci.state.appendLogPart(jobId, 'before the restart\n');
    await w.edit(placement.messageTs, /before the restart\n```$/);
    const editsBefore = w.slack.callsTo('chat.update').length;

    await first.stop();
    await sleep(200);
    assert.equal(w.slack.callsTo('chat.update').length, editsBefore, 'no edit, final or not, on shutdown');
    const id = followId({ deployment: 'com', jobId, teamId: TEAM, channelId: 'C0RESTART' });
    assert.equal((await w.follows.get(id))?.messageTs, placement.messageTs, 'the record stays');
    await w.pusher.waitFor(() => !w.pusher.subscriptions().has(`job-${jobId}`), 'the channel to be left');

    w.ci.state.appendLogPart(jobId, 'while nobody listened\n');
    const next = w.follower({ ownerId: 'restarted' }); // the default lease (30 s) was handed over
    await next.start();
    assert.equal(next.size, 1);
    await w.edit(placement.messageTs, /while nobody listened\n```$/);
    w.ci.state.updateJob(jobId, { state: 'passed' });
    w.ci.state.appendLogPart(jobId, 'done\n', { final: true });
    await w.finalEdit(placement.messageTs);
    await waitUntil(() => next.size === 0, 'the follow to end');
    await next.stop();
  });

  it('fills a hole that realtime never fills from REST, and ends when REST shows the job finished', async () => {
    const follower = w.follower({
      ownerId: 'safety',
      timing: { gapWaitMs: 100, jobCheckIntervalMs: 150, finishGraceMs: 200 },
    });
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0SAFE' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    w.ci.state.appendLogPart(jobId, 'one\n', { number: 0 });
    // Part 1 only ever reaches REST; part 2 comes live and waits for it.
    const log = w.ci.state.getLog(jobId);
    log?.parts.push({ number: 1, content: 'two\n', final: false });
    w.ci.state.appendLogPart(jobId, 'three\n', { number: 2 });
    await w.edit(placement.messageTs, /one\ntwo\nthree\n```$/);

    // No final part ever comes: REST says the job finished, and the follow ends after its grace time.
    w.ci.state.updateJob(jobId, { state: 'errored' });
    const final = await w.finalEdit(placement.messageTs);
    assert.match(String(final.args.text), /^:heavy_exclamation_mark: \*Job .* errored\*/);
    assert.deepEqual(shownLines(String(final.args.text)), ['one', 'two', 'three']);
    await follower.stop();
  });

  it('reads REST when realtime stayed quiet for a whole check, so a lost last part still shows', async () => {
    const follower = w.follower({ ownerId: 'quiet', timing: { jobCheckIntervalMs: 150 } });
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0QUIET' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    w.ci.state.appendLogPart(jobId, 'heard live\n', { number: 0 });
    await w.edit(placement.messageTs, /heard live\n```$/);
    w.ci.state.getLog(jobId)?.parts.push({ number: 1, content: 'never announced\n', final: false });
    await w.edit(placement.messageTs, /heard live\nnever announced\n```$/);
    w.ci.state.updateJob(jobId, { state: 'passed' });
    w.ci.state.appendLogPart(jobId, 'end\n', { number: 2, final: true });
    await w.finalEdit(placement.messageTs);
    await waitUntil(() => follower.size === 0, 'the follow to end');
    await follower.stop();
  });

  it('stops a follow whose message was deleted, and forgets it', async () => {
    const follower = w.follower({ ownerId: 'deleted' });
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0GONE' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    w.slack.failNext('chat.update', 'message_not_found');
    w.ci.state.appendLogPart(jobId, 'into the void\n');
    await w.pusher.waitFor(() => !w.pusher.subscriptions().has(`job-${jobId}`), 'the channel to be left');
    assert.equal(follower.size, 0);
    for (const call of w.slack.rejected()) if (call.error === 'message_not_found') meantToFail.add(call);
    const id = followId({ deployment: 'com', jobId, teamId: TEAM, channelId: placement.channel });
    await waitUntil(async () => (await w.follows.get(id)) === undefined, 'the record to go');
  });

  it('stops a continued follow whose user is no longer linked, saying so in the thread', async () => {
    const lease = { leaseTtlMs: 200, scanIntervalMs: 100 };
    const first = w.follower({ ownerId: 'unlinked-owner', timing: lease });
    const { jobId } = w.runningJob();
    await w.services.accounts.link({
      teamId: TEAM,
      userId: 'U0LEAVER',
      deployment: 'com',
      ciLogin: 'rkh',
      ciUserId: 267,
      token: 'token-rkh',
    });
    const actor = { teamId: TEAM, userId: 'U0LEAVER' };
    const placement = placementOf(
      await first.follow({ deployment: 'com', jobId, actor, channelId: 'C0LEAVE' }),
    );
    await first.stop({ handOver: false });
    await w.services.accounts.unlink(TEAM, 'U0LEAVER', 'com');
    const second = w.follower({ ownerId: 'unlinked-heir', timing: lease });
    await second.start();
    const final = await w.edit(placement.messageTs, /Stopped following/);
    assert.match(String(final.args.text), /<@U0LEAVER>, whose account read this log, is no longer linked/);
    assert.equal(second.size, 0);
    await second.stop();
  });
});

describe('LogFollower without realtime', () => {
  let w: FollowWorld;
  before(async () => {
    w = await startFollowWorld();
    // The deployment announces no realtime service: GET /config has no pusher settings.
    w.ci.fault({ method: 'GET', path: '/config' }, { status: 200, body: JSON.stringify({ config: {} }) });
  });
  afterEach(() => assert.deepEqual(w.slack.rejected(), []));
  after(() => w.close());

  it('polls the REST parts each update interval instead', async () => {
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await w.services.follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0POLL' }),
    );
    w.ci.state.appendLogPart(jobId, 'polled one\n');
    await w.edit(placement.messageTs, /polled one\n```$/);
    w.ci.state.updateJob(jobId, { state: 'passed' });
    w.ci.state.appendLogPart(jobId, 'polled two\n', { final: true });
    const final = await w.finalEdit(placement.messageTs);
    assert.deepEqual(shownLines(String(final.args.text)), ['polled one', 'polled two']);
    assert.equal(w.pusher.connections(), 0, 'no realtime connection was made');
  });
});
