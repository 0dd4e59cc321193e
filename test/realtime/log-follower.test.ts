import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import { CiError } from '../../src/ci/errors.js';
import { cleanLog, splitLines } from '../../src/ci/log-text/index.js';
import type { FollowOutcome } from '../../src/realtime/log-follower.js';
import {
  type FollowWorld,
  RKH,
  seededRandom,
  shownLines,
  startFollowWorld,
  TEAM,
  VISITOR,
} from './follow-world.js';

function placementOf(outcome: FollowOutcome) {
  assert.equal(outcome.kind, 'started', `expected a started follow, got ${outcome.kind}`);
  if (outcome.kind !== 'started') throw new Error('unreachable');
  return outcome.placement;
}

/** The last 40 lines of the whole log, as a tail shows them. */
function expectedTail(parts: string[]): string[] {
  return splitLines(cleanLog(parts.join(''))).slice(-40);
}

const logFetches = (w: FollowWorld) => w.ci.requests.filter((r) => r.path.startsWith('/logs/')).length;

describe('LogFollower: the tail in Slack', () => {
  let w: FollowWorld;
  before(async () => {
    w = await startFollowWorld();
  });
  afterEach(() => assert.deepEqual(w.slack.rejected(), []));
  after(() => w.close());

  it('ends a stream of 2,000 parts, out of order and with duplicates, with exactly the right tail', async () => {
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await w.services.follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0TAIL1' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    const fetchesBefore = logFetches(w);

    const parts = Array.from({ length: 2_000 }, (_, n) =>
      n % 97 === 0 ? `\u001b[32mstep ${n}\u001b[0m\r\nprogress ${n}%\rdone ${n}\n` : `part ${n} line\n`,
    );
    const random = seededRandom(42);
    const sends = parts.map((_, n) => ({ n, at: n + random() * 150 }));
    for (let n = 0; n < parts.length; n += 7) sends.push({ n, at: n + random() * 400 });
    sends.sort((a, b) => a.at - b.at);
    w.ci.state.updateJob(jobId, { state: 'passed' });
    for (const { n } of sends) {
      w.ci.state.appendLogPart(jobId, parts[n] ?? '', { number: n, final: n === parts.length - 1 });
    }

    const final = await w.finalEdit(placement.messageTs);
    assert.deepEqual(shownLines(String(final.args.text)), expectedTail(parts));
    assert.equal(logFetches(w), fetchesBefore, 'the realtime parts alone made the tail');
    assert.equal(w.pusher.subscriptions().get(`job-${jobId}`) ?? 0, 0, 'the channel is left');
  });

  it('loses and doubles no line across a reconnect: parts sent meanwhile come over REST', async () => {
    const { jobId } = w.runningJob();
    const placement = placementOf(
      await w.services.follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0TAIL2' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    const parts = Array.from({ length: 300 }, (_, n) => `line ${String(n).padStart(4, '0')}\n`);
    const send = (from: number, to: number) => {
      for (let n = from; n < to; n++) w.ci.state.appendLogPart(jobId, parts[n] ?? '', { number: n });
    };

    send(0, 100);
    await w.edit(placement.messageTs, /line 0099\n```$/);
    w.pusher.refuseConnections(true);
    w.pusher.dropAll();
    await w.pusher.waitFor(() => w.pusher.connections() === 0, 'every socket to close');
    send(100, 200); // nobody hears these live
    w.pusher.refuseConnections(false);
    await w.edit(placement.messageTs, /line 0199\n```$/);

    w.ci.state.updateJob(jobId, { state: 'failed' });
    send(200, 299);
    w.ci.state.appendLogPart(jobId, parts[299] ?? '', { number: 299, final: true });
    const final = await w.finalEdit(placement.messageTs);
    assert.deepEqual(shownLines(String(final.args.text)), expectedTail(parts));
  });

  it('edits a tail at most once per update interval, and only when it changed', async () => {
    const { jobId } = w.runningJob();
    const interval = 200;
    const follower = w.follower({ ownerId: 'throttle', timing: { updateIntervalMs: interval } });
    const placement = placementOf(
      await follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0TAIL3' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    const started = Date.now();
    for (let n = 0; Date.now() - started < 1_300; n++) {
      w.ci.state.appendLogPart(jobId, `tick ${n}\n`, { number: n });
      await sleep(20);
    }
    const streamedFor = Date.now() - started;
    await sleep(interval + 100); // the last change is shown, then nothing changes
    const quietSince = w.slack.callsTo('chat.update').length;
    await sleep(interval * 2);
    const edits = w.slack.callsTo('chat.update').filter((c) => c.args.ts === placement.messageTs);
    assert.equal(w.slack.callsTo('chat.update').length, quietSince, 'no edit without a change');
    assert.ok(edits.length >= 5, `${edits.length} edits`);
    assert.ok(
      edits.length <= Math.ceil(streamedFor / interval) + 2,
      `${edits.length} edits in ${streamedFor} ms`,
    );
    const gaps = edits.slice(1).map((c, i) => c.at - (edits[i]?.at ?? 0));
    // Gaps are read where the edits arrive, so a late delivery shortens the next gap; unthrottled,
    // edits would follow the parts every 20 ms. The count above bounds the rate itself.
    assert.ok(Math.min(...gaps) >= interval / 2, `gaps between edits: ${gaps.join(', ')} ms`);
    await follower.stop();
  });

  it('ends with the state, the duration and a link to the whole log', async () => {
    const { jobId, number } = w.runningJob();
    const placement = placementOf(
      await w.services.follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0TAIL4' }),
    );
    await w.pusher.waitForSubscription(`job-${jobId}`);
    w.ci.state.appendLogPart(jobId, 'compiling\n<!channel> ``` boom\n');
    w.ci.state.updateJob(jobId, {
      state: 'failed',
      startedAt: '2030-01-01T10:00:00Z',
      finishedAt: '2030-01-01T10:04:12Z',
    });
    w.ci.state.appendLogPart(jobId, 'exit 1\n', { final: true });
    const text = String((await w.finalEdit(placement.messageTs)).args.text);
    const url = `https://app.travis-ci.com/github/rails/rails/jobs/${jobId}`;
    assert.ok(
      text.startsWith(
        `:x: *Job <${url}|#${number}> of rails/rails failed* in 4m 12s · <${url}|Full log on travis-ci.com>\n`,
      ),
      text,
    );
    assert.match(text, /&lt;!channel&gt;/);
    assert.equal(text.split('```').length, 3, 'a stray ``` cannot close the block');
    assert.match(text, /exit 1\n```$/);
  });

  it('reads a private job with the follower’s own token, and refuses a user who cannot see it', async () => {
    const { jobId } = w.runningJob('rkh/secret-project');
    const postsBefore = w.slack.callsTo('chat.postMessage').length;
    await assert.rejects(
      w.services.follower.follow({ deployment: 'com', jobId, actor: VISITOR, channelId: 'C0TAIL5' }),
      (error: unknown) => error instanceof CiError,
    );
    assert.equal(w.slack.callsTo('chat.postMessage').length, postsBefore, 'nothing posted for the visitor');

    const placement = placementOf(
      await w.services.follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0TAIL5' }),
    );
    await w.pusher.waitForSubscription(`private-job-${jobId}`);
    const auth = w.ci.requests.filter(
      (r) => r.path === '/pusher/auth' && r.body.includes(`private-job-${jobId}`),
    );
    assert.deepEqual(
      auth.map((r) => r.headers.authorization),
      ['token token-rkh'],
    );
    w.ci.state.updateJob(jobId, { state: 'passed' });
    w.ci.state.appendLogPart(jobId, 'secret output\n', { final: true });
    assert.deepEqual(shownLines(String((await w.finalEdit(placement.messageTs)).args.text)), [
      'secret output',
    ]);
  });

  it('follows a job once per channel: asking again points at the existing thread', async () => {
    const { jobId } = w.runningJob();
    const request = { deployment: 'com' as const, jobId, actor: RKH, channelId: 'C0TWICE' };
    const first = placementOf(await w.services.follower.follow(request));
    const again = await w.services.follower.follow(request);
    assert.equal(again.kind, 'already');
    assert.deepEqual(again.kind === 'already' ? again.placement : undefined, first);
    await w.pusher.waitForSubscription(`job-${jobId}`);
    assert.equal(w.slack.messages('C0TWICE').length, 2, 'one parent line and one tail');

    const elsewhere = placementOf(await w.services.follower.follow({ ...request, channelId: 'C0OTHER' }));
    assert.notEqual(elsewhere.messageTs, first.messageTs);
    assert.equal(w.pusher.subscriptions().get(`job-${jobId}`), 1, 'both tails share one subscription');
    w.ci.state.updateJob(jobId, { state: 'passed' });
    w.ci.state.appendLogPart(jobId, 'shared\n', { final: true });
    await Promise.all([w.finalEdit(first.messageTs), w.finalEdit(elsewhere.messageTs)]);
    await w.pusher.waitFor(() => !w.pusher.subscriptions().has(`job-${jobId}`), 'the channel to be left');
  });

  it('threads the tail under the build’s notification when the channel has one', async () => {
    const { jobId, buildId } = w.runningJob();
    const notification = await w.services.outbox.post({
      teamId: TEAM,
      channel: 'C0NOTIFY',
      text: 'build card',
    });
    await w.services.buildMessages.set(
      { deployment: 'com', buildId, teamId: TEAM, channelId: 'C0NOTIFY' },
      notification,
    );
    const placement = placementOf(
      await w.services.follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0NOTIFY' }),
    );
    assert.equal(placement.threadTs, notification.ts);
    const messages = w.slack.messages('C0NOTIFY');
    assert.deepEqual(
      messages.map((m) => m.thread_ts),
      [undefined, notification.ts],
      'no parent line of its own',
    );
  });

  it('posts a parent line naming who follows which job when the build has no message', async () => {
    const { jobId, number } = w.runningJob();
    const placement = placementOf(
      await w.services.follower.follow({ deployment: 'com', jobId, actor: RKH, channelId: 'C0PARENT' }),
    );
    const [parent, tail] = w.slack.messages('C0PARENT');
    assert.equal(
      parent?.text,
      `<@U0USER> is following job <https://app.travis-ci.com/github/rails/rails/jobs/${jobId}|#${number}> of rails/rails.`,
    );
    assert.equal(tail?.thread_ts, parent?.ts);
    assert.equal(tail?.ts, placement.messageTs);
  });
});
