import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { setTimeout as sleep } from 'node:timers/promises';
import type { Services } from '../../src/services.js';
import { type NotifyWorld, parents, replies, shown, startNotifyWorld, TEAM, USER } from './notifier-world.js';

/** Direct messages, Slack trouble (429, 5xx, removed channels), restarts with work left, injection, size. */
describe('the notifier delivers', () => {
  let w: NotifyWorld;
  let channels = 0;
  const channel = () => `CDELIV${++channels}`;

  before(async () => {
    w = await startNotifyWorld();
  });
  after(() => w.close());

  /** Links a Slack user to a CI login and turns `/ci notify me` on or off for them. */
  async function person(services: Services, userId: string, login: string, email: string, on: boolean) {
    await services.accounts.link({
      teamId: TEAM,
      userId,
      deployment: 'com',
      ciLogin: login,
      ciUserId: 50_000 + login.length,
      token: `token-${login}`,
    });
    await services.notifyPrefs.set(
      TEAM,
      userId,
      on,
      on ? [{ deployment: 'com', ciLogin: login, email }] : [],
    );
  }

  /** Waits until `check` holds (for work the notifier retries on its own). */
  async function eventually(check: () => boolean | Promise<boolean>, what: string, timeoutMs = 3_000) {
    const until = Date.now() + timeoutMs;
    while (!(await check())) {
      if (Date.now() > until) assert.fail(`timed out waiting for ${what}`);
      await sleep(20);
    }
  }

  it('sends the author who asked for it one direct message per build, edited when the build is restarted', async (t) => {
    await person(w.services, 'U0ADA', 'ada', 'ada@example.com', true);
    // The fake's commits are Ada's by default: the other tests count no direct messages.
    t.after(() => w.services.notifyPrefs.set(TEAM, 'U0ADA', false));
    await person(w.services, 'U0BOB', 'bob', 'bob@example.com', false);
    const repo = w.repo('dm');
    await w.subscribe(channel(), repo);
    await w.subscribe(channel(), repo, { only: 'failures' });
    const mine = w.addBuild(repo, { state: 'created', authorEmail: 'ada@example.com', authorName: 'Ada' });
    const bobs = w.addBuild(repo, { state: 'passed', authorEmail: 'bob@example.com', authorName: 'bob' });
    await w.notifier.handle(await w.update(mine));
    assert.equal(w.slack.messages('DU0ADA').length, 0, 'no direct message before the build ends');
    w.ci.state.updateBuild(mine, { state: 'passed', finishedAt: '2030-04-01T10:00:00Z' });
    await w.notifier.handle(await w.update(mine));
    await w.notifier.handle(await w.update(bobs));

    const [dm, ...more] = w.slack.messages('DU0ADA');
    assert.ok(dm);
    assert.deepEqual(more, [], 'one direct message although two channels subscribe the repository');
    assert.match(dm.text, /passed/);
    assert.equal(w.slack.messages('DU0BOB').length, 0, 'bob did not ask for direct messages');

    w.ci.state.restartBuild(mine);
    w.ci.state.updateBuild(mine, { state: 'started', startedAt: '2030-04-01T11:00:00Z' });
    await w.notifier.handle(await w.update(mine));
    w.ci.state.updateBuild(mine, { state: 'failed', finishedAt: '2030-04-01T11:05:00Z' });
    await w.notifier.handle(await w.update(mine));
    const after = w.slack.messages('DU0ADA');
    assert.equal(after.length, 1, 'the restart edits the same direct message');
    assert.match(after[0]?.text ?? '', /failed/);
    assert.deepEqual(
      after[0]?.history.map((v) => /running/.test(v.text)),
      [false, true],
      'passed, then running, then failed',
    );
  });

  it('loses nothing and doubles nothing while Slack answers 429 for a while', async () => {
    const rejectedBefore = w.slack.rejected().length;
    const repo = w.repo('rate-limited');
    const channelIds = [channel(), channel()];
    for (const channelId of channelIds) await w.subscribe(channelId, repo, { started: true });
    const ids = [1, 2, 3, 4].map(() => w.addBuild(repo, { state: 'created', jobs: [{ log: 'oops\n' }] }));
    const before = w.slack.rateLimitedCount();
    w.slack.rateLimit('chat.postMessage', 900, 1);
    const created = Promise.all(ids.map(async (id) => w.notifier.handle(await w.update(id))));
    await w.slack.waitForCall('chat.postMessage', (c) => c.status === 429);
    for (const id of ids) w.ci.state.updateBuild(id, { state: 'started' });
    const started = Promise.all(ids.map(async (id) => w.notifier.handle(await w.update(id))));
    await Promise.all([created, started]);
    w.slack.rateLimit('chat.update', 900, 1);
    for (const id of ids) {
      for (const job of w.ci.state.getBuild(id)?.jobIds ?? []) w.ci.state.updateJob(job, { state: 'failed' });
      w.ci.state.updateBuild(id, { state: 'failed' });
    }
    await Promise.all(ids.map(async (id) => w.notifier.handle(await w.update(id))));

    assert.ok(w.slack.rateLimitedCount() - before >= 2, 'Slack did answer 429');
    for (const channelId of channelIds) {
      const posted = parents(w.slack, channelId);
      assert.equal(posted.length, ids.length, 'one message per build');
      for (const message of posted) {
        assert.match(message.text, /failed/);
        assert.equal(replies(w.slack, channelId, message.ts).length, 1);
      }
    }
    assert.deepEqual(w.slack.rejected().slice(rejectedBefore), []);
  });

  it('brings a message to its final state after Slack failed the edit for good', async () => {
    const repo = w.repo('transient');
    const channelId = channel();
    await w.subscribe(channelId, repo, { started: true });
    const id = w.addBuild(repo, { state: 'started' });
    await w.notifier.handle(await w.update(id));
    // Both attempts the outbox makes fail, so the edit is rejected as transient.
    w.slack.failNext('chat.update', 'internal_error', 2);
    w.ci.state.updateBuild(id, { state: 'passed' });
    await w.notifier.handle(await w.update(id));
    await eventually(() => /passed/.test(parents(w.slack, channelId)[0]?.text ?? ''), 'the retried edit');
    assert.equal(parents(w.slack, channelId).length, 1);
    await eventually(
      async () => (await w.services.kv.hgetall('notify-pending'))[`com:${id}`] === undefined,
      'the retry to be forgotten',
    );
  });

  it('posts what a stopped process still owed when the next one starts', async () => {
    const repo = w.repo('owed');
    const channelId = channel();
    await w.subscribe(channelId, repo);
    // A replica that will not retry before it is stopped.
    const doomed = await w.replica({ notifier: { retry: { delaysMs: [60_000], sweepIntervalMs: 0 } } });
    w.slack.failNext('chat.postMessage', 'service_unavailable', 2);
    const id = w.addBuild(repo, { state: 'passed' });
    await doomed.notifier.handle(await w.update(id));
    assert.equal(parents(w.slack, channelId).length, 0);
    await doomed.notifier.close();

    // The next process takes over what is pending in Redis as it starts.
    await w.replica();
    await eventually(() => parents(w.slack, channelId).length === 1, 'the next process to post the message');
    assert.match(parents(w.slack, channelId)[0]?.text ?? '', /passed/);
  });

  it('escapes what comes from the CI service: commit message, branch, author and log lines', async () => {
    const rejectedBefore = w.slack.rejected().length;
    const repo = w.repo('injection');
    const channelId = channel();
    await w.subscribe(channelId, repo);
    const id = w.addBuild(repo, {
      state: 'failed',
      branch: '<@U1>',
      message: '<!channel> look at this <https://evil.example|click>',
      authorName: '<!here> Mallory',
      jobs: [{ state: 'failed', log: 'ok\n<!everyone> ``` not the end\n' }],
    });
    await w.notifier.handle(await w.update(id));
    const messages = w.slack.messages(channelId);
    assert.equal(messages.length, 2);
    const everything = messages.map(shown).join('\n');
    for (const raw of ['<!channel>', '<@U1>', '<!here>', '<!everyone>', '<https://evil.example']) {
      assert.ok(!everything.includes(raw), `${raw} reached Slack unescaped`);
    }
    assert.match(everything, /&lt;!channel&gt;/);
    assert.match(everything, /&lt;@U1&gt;/);
    assert.match(everything, /&lt;!everyone&gt;/);
    assert.doesNotMatch(
      messages[1]?.text ?? '',
      /``` not the end/,
      'a fence in the log does not close the block',
    );
    for (const call of w.slack.calls) {
      const text = JSON.stringify(call.args);
      assert.ok(
        !text.includes('<!channel>') && !text.includes('<@U1>'),
        `${call.method} carried a raw mention`,
      );
    }
    assert.deepEqual(w.slack.rejected().slice(rejectedBefore), []);
  });

  it('pauses the subscription of a channel the app was removed from, and posts nothing there', async () => {
    const repo = w.repo('removed');
    const gone = channel();
    const kept = channel();
    await w.subscribe(gone, repo);
    await w.subscribe(kept, repo);
    w.slack.setChannel(gone, { is_member: false });
    const id = w.addBuild(repo, { state: 'passed' });
    await w.notifier.handle(await w.update(id));

    const [sub] = await w.services.subscriptions.forChannel(TEAM, gone);
    assert.equal(sub?.status, 'paused');
    assert.equal(sub?.pausedReason, 'slack:not_in_channel');
    assert.equal(parents(w.slack, kept).length, 1, 'other channels are not affected');
    const [still] = await w.services.subscriptions.forChannel(TEAM, kept);
    assert.equal(still?.status, 'active');

    const posts = w.slack.callsTo('chat.postMessage').length;
    const next = w.addBuild(repo, { state: 'passed' });
    await w.notifier.handle(await w.update(next));
    const tried = w.slack.callsTo('chat.postMessage').slice(posts);
    assert.equal(tried.filter((c) => c.args.channel === gone).length, 0, 'the paused channel is skipped');
    assert.equal(w.slack.messages(gone).length, 0);
  });

  it('fits a 300-job build and its failure reply within Slack’s limits', async () => {
    const rejectedBefore = w.slack.rejected().length;
    const repo = w.repo('huge');
    const channelId = channel();
    await w.subscribe(channelId, repo, {}, USER);
    const longLog = `${'x'.repeat(500)}\n`.repeat(200);
    const jobs = Array.from({ length: 300 }, (_, i) => ({
      state: i % 3 === 0 ? 'failed' : 'passed',
      allowFailure: i % 30 === 0,
      config: { language: 'ruby', name: `shard ${i} ${'long name '.repeat(20)}` },
      log: i % 3 === 0 ? longLog : '',
    }));
    const id = w.addBuild(repo, { state: 'failed', jobs });
    await w.notifier.handle(await w.update(id));
    const [message] = parents(w.slack, channelId);
    assert.ok(message);
    assert.match(shown(message), /300 jobs: 200 passed · 90 failed · 10 allowed to fail/);
    assert.match(shown(message), /…and 95 more failed jobs/);
    const [reply] = replies(w.slack, channelId, message.ts);
    assert.ok(reply);
    assert.ok(reply.text.length <= 13_000, `the reply is ${reply.text.length} characters`);
    assert.match(reply.text, /logs of 5 of 100/);
    assert.match(reply.text, /Also failed: /);
    assert.deepEqual(w.slack.rejected().slice(rejectedBefore), []);
  });
});
