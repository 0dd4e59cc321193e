import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { StoredMessage } from '../fakes/slack/index.js';
import { FAKE_IDENTITY } from '../fakes/slack/index.js';
import { type Harness, type HarnessOptions, startHarness, visibleText } from '../helpers/app-harness.js';

/**
 * Issue 4's "done when", through the whole app: two app processes (replicas) on one Redis with the
 * background work running (watcher + notifier), the fake CI announcing builds over the realtime
 * server and answering polls. A subscribed channel sees each build as one message that follows the
 * build to its end, with the failure's log in its thread, also after a replica restarts.
 */

const CHANNEL = FAKE_IDENTITY.channelId;
const FAST: HarnessOptions = {
  background: true,
  env: { NOTIFY_POLL_INTERVAL_MS: '400', LEASE_TTL_MS: '1500', SLACK_RATE_BUDGETS: 'chat.update=600' },
};

async function until<T>(probe: () => T | undefined, what: string, timeoutMs = 15_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}

describe('channel notifications, end to end, with two replicas', () => {
  let first: Harness;
  let second: Harness;

  before(async () => {
    first = await startHarness({ ...FAST, pusher: true });
    second = await startHarness({ ...FAST, replicaOf: first });
    await first.link();
    const { responseUrl } = await first.command('subscribe rails/rails started:on');
    assert.match(visibleText(await first.answer(responseUrl, 10_000)), /subscribed/i);
  });
  after(async () => {
    await second.close();
    await first.close();
  });

  /** Parent messages (not thread replies) about build `number` in the channel. */
  const parentsOf = (number: string): StoredMessage[] =>
    first.slack
      .messages(CHANNEL)
      .filter(
        (m) =>
          m.thread_ts === undefined &&
          visibleText(m as unknown as Record<string, unknown>).includes(`#${number}`),
      );

  it('posts one message per build, follows it to its end, and puts the failure log in its thread', async () => {
    const state = first.ci.state;
    const build = state.addBuild('rails/rails', {
      state: 'created',
      jobs: 2,
      branch: 'main',
      message: 'Ping <!channel> about this',
    });
    const parent = await until(() => parentsOf(build.number)[0], 'the build message');

    const [job1, job2] = state.jobsOf(build);
    assert.ok(job1 && job2);
    state.updateBuild(build.id, { state: 'started' });
    state.updateJob(job1.id, { state: 'started' });
    state.updateJob(job2.id, { state: 'started' });
    state.setLog(job1.id, 'Installing\n\u001b[31mFAIL\u001b[0m test_login (expected 200, got 500)\n', {
      final: true,
    });
    state.updateJob(job1.id, { state: 'failed' });
    state.updateJob(job2.id, { state: 'passed' });
    state.updateBuild(build.id, { state: 'failed' });

    await until(() => {
      const [message] = parentsOf(build.number);
      return message && /failed/.test(visibleText(message as unknown as Record<string, unknown>))
        ? message
        : undefined;
    }, 'the message to show the failure');
    const reply = await until(
      () =>
        first.slack
          .messages(CHANNEL)
          .find((m) => m.thread_ts === parent.ts && /test_login/.test(m.text + JSON.stringify(m.blocks))),
      'the failure log in the thread',
    );
    assert.doesNotMatch(JSON.stringify(reply), /\\u001b\[31m/, 'the log was cleaned of colour codes');

    // Let both replicas settle, then count: one parent, edited in place; one failure reply.
    await sleep(1_500);
    assert.equal(parentsOf(build.number).length, 1, 'one message for the build, whichever replica saw what');
    const parents = first.slack
      .callsTo('chat.postMessage')
      .filter(
        (c) =>
          c.args.channel === CHANNEL &&
          !c.args.thread_ts &&
          String(JSON.stringify(c.args)).includes(`#${build.number}`),
      );
    assert.equal(parents.length, 1, 'posted exactly once');
    const replies = first.slack.messages(CHANNEL).filter((m) => m.thread_ts === parent.ts);
    assert.equal(replies.length, 1, 'one failure reply');
    const shown = JSON.stringify(first.slack.messages(CHANNEL));
    assert.doesNotMatch(shown, /<!channel>/, 'a commit message pings nobody');
    assert.deepEqual(first.slack.rejected(), []);
  });

  it('keeps following the same message after a replica restarts, and a restarted build edits it again', async () => {
    const state = first.ci.state;
    const build = state.addBuild('rails/rails', { state: 'started', jobs: 1, branch: 'main' });
    const parent = await until(() => parentsOf(build.number)[0], 'the build message');
    const [job] = state.jobsOf(build);
    assert.ok(job);
    state.updateJob(job.id, { state: 'passed' });
    state.updateBuild(build.id, { state: 'passed' });
    await until(
      () =>
        /passed/.test(visibleText(parentsOf(build.number)[0] as unknown as Record<string, unknown>))
          ? true
          : undefined,
      'passed',
    );

    // The second replica stops and a new one takes its place on the same Redis.
    await second.close();
    second = await startHarness({ ...FAST, replicaOf: first });

    await sleep(1_100); // a restart starts in a later second than the end it follows
    state.restartBuild(build.id);
    state.updateBuild(build.id, { state: 'started' });
    state.updateJob(job.id, { state: 'started' });
    await until(
      () =>
        /running|started/i.test(visibleText(parentsOf(build.number)[0] as unknown as Record<string, unknown>))
          ? true
          : undefined,
      'the restarted build shown as running',
    );
    state.updateJob(job.id, { state: 'passed' });
    state.updateBuild(build.id, { state: 'passed' });
    await until(
      () =>
        /passed/.test(visibleText(parentsOf(build.number)[0] as unknown as Record<string, unknown>))
          ? true
          : undefined,
      'passed again',
    );
    const [message] = parentsOf(build.number);
    assert.equal(message?.ts, parent.ts, 'the same message, edited');
    assert.equal(parentsOf(build.number).length, 1);
    assert.ok((message?.history.length ?? 0) >= 2, 'it was edited as the build moved');
  });
});
