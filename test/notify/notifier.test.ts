import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type NotifyWorld, parents, replies, shown, startNotifyWorld } from './notifier-world.js';

/** One message per build per channel, following the build to its end, across replicas and restarts. */
describe('the notifier: one message per build per channel', () => {
  let w: NotifyWorld;
  let channels = 0;
  const channel = () => `CNOTE${++channels}`;

  before(async () => {
    w = await startNotifyWorld();
  });
  after(() => w.close());

  const texts = (channelId: string, ts: string) => {
    const message = w.slack.messages(channelId).find((m) => m.ts === ts);
    return message ? [...message.history.map((v) => v.text), message.text] : [];
  };

  it('posts once and edits the message created → started → failed, with the log tails in its thread', async () => {
    const repo = w.repo('lifecycle');
    const channelId = channel();
    await w.subscribe(channelId, repo, { started: true });
    const id = w.addBuild(repo, {
      message: 'Make the parser faster\n\nLong body',
      authorName: 'Ada Lovelace',
      jobs: [{ log: null }, { log: null, allowFailure: true }, { log: null }],
    });
    const [first, second, third] = w.ci.state.getBuild(id)?.jobIds ?? [];
    assert.ok(first && second && third);
    w.ci.state.setLog(first, 'compiling\nerror: the first job broke\n', { final: true });
    w.ci.state.setLog(second, 'allowed job output\nflaky test failed\n', { final: true });

    await w.notifier.handle(await w.update(id));
    let [message, ...others] = parents(w.slack, channelId);
    assert.ok(message);
    assert.deepEqual(others, []);
    assert.match(shown(message), /queued/);

    w.ci.state.updateBuild(id, { state: 'started' });
    await w.notifier.handle(await w.update(id));

    w.ci.state.updateJob(first, { state: 'failed' });
    w.ci.state.updateJob(second, { state: 'failed' });
    w.ci.state.updateJob(third, { state: 'passed' });
    w.ci.state.updateBuild(id, { state: 'failed' });
    await w.notifier.handle(await w.update(id));

    [message, ...others] = parents(w.slack, channelId);
    assert.ok(message);
    assert.deepEqual(others, [], 'still one message');
    const history = texts(channelId, message.ts);
    assert.equal(history.length, 3);
    assert.match(history[0] ?? '', /queued/);
    assert.match(history[1] ?? '', /running/);
    assert.match(history[2] ?? '', /failed/);
    const final = shown(message);
    assert.match(final, new RegExp(`${repo.slug.replace('/', '\\/')} #1`));
    assert.match(final, /3 jobs: 1 passed · 1 failed · 1 allowed to fail/);
    assert.match(final, /_Make the parser faster_ · Ada Lovelace/);
    assert.match(final, /`main` · push|\|main> · push/);
    assert.match(final, /build\.restart:/);
    assert.doesNotMatch(final, /build\.cancel:/, 'a finished build cannot be canceled');

    const [reply, ...moreReplies] = replies(w.slack, channelId, message.ts);
    assert.ok(reply, 'the failure reply is in the thread');
    assert.deepEqual(moreReplies, []);
    const firstAt = reply.text.indexOf('error: the first job broke');
    const allowedAt = reply.text.indexOf('flaky test failed');
    assert.ok(firstAt > 0 && allowedAt > firstAt, 'the job that may not fail comes first');
    assert.match(reply.text, /allowed to fail/);
    assert.match(reply.text, /```\n/);
    const call = w.slack.callsTo('chat.update').at(-1);
    assert.equal(call?.args.ts, message.ts);
    assert.deepEqual(w.slack.rejected(), []);
  });

  it('shows a running build with a Cancel button and no Restart', async () => {
    const repo = w.repo('running');
    const channelId = channel();
    await w.subscribe(channelId, repo, { started: true });
    const id = w.addBuild(repo, { state: 'started', jobs: 2 });
    await w.notifier.handle(await w.update(id));
    const [message] = parents(w.slack, channelId);
    assert.ok(message);
    assert.match(shown(message), /build\.cancel:/);
    assert.doesNotMatch(shown(message), /build\.restart:/);
    assert.match(shown(message), /2 jobs: 2 running/);
  });

  it('posts once when two replicas on one Redis handle the same updates at the same time', async () => {
    const b = await w.replica();
    const repo = w.repo('replicas');
    const channelIds = [channel(), channel()];
    for (const channelId of channelIds) await w.subscribe(channelId, repo, { started: true });
    const ids = [1, 2, 3].map(() => w.addBuild(repo, { jobs: 2 }));
    const both = async (id: number) => {
      const update = await w.update(id);
      await Promise.all([w.notifier.handle(update), b.notifier.handle(structuredClone(update))]);
    };
    await Promise.all(ids.map(both));
    for (const id of ids) w.ci.state.updateBuild(id, { state: 'started' });
    await Promise.all(ids.map(both));
    for (const id of ids) {
      for (const job of w.ci.state.getBuild(id)?.jobIds ?? []) w.ci.state.updateJob(job, { state: 'failed' });
      w.ci.state.updateBuild(id, { state: 'failed' });
    }
    await Promise.all(ids.map(both));

    for (const channelId of channelIds) {
      const posted = parents(w.slack, channelId).filter((m) => !m.text.startsWith('*Failed'));
      assert.equal(posted.length, ids.length, 'one message per build');
      for (const message of posted) {
        assert.match(message.text, /failed/);
        assert.equal(replies(w.slack, channelId, message.ts).length, 1, 'one failure reply per build');
      }
    }
    assert.deepEqual(w.slack.rejected(), []);
  });

  it('ends with the final state when two replicas race with different states of a build', async () => {
    const b = await w.replica();
    const repo = w.repo('race');
    const channelId = channel();
    await w.subscribe(channelId, repo, { started: true });
    const ids = Array.from({ length: 8 }, () =>
      w.addBuild(repo, { state: 'started', startedAt: '2030-03-01T10:00:00Z' }),
    );
    const running = await Promise.all(ids.map((id) => w.update(id)));
    for (const id of ids) w.ci.state.updateBuild(id, { state: 'failed', finishedAt: '2030-03-01T10:02:00Z' });
    const failed = await Promise.all(ids.map((id) => w.update(id)));
    // Half the builds: the replica with the running state goes first; the other half: the other one.
    await Promise.all(
      ids.map((_, i) => {
        const [older, newer] = [running[i], failed[i]];
        assert.ok(older && newer);
        return i % 2 === 0
          ? Promise.all([w.notifier.handle(older), b.notifier.handle(newer)])
          : Promise.all([b.notifier.handle(newer), w.notifier.handle(older)]);
      }),
    );
    // And a replica that learns of the running state only after the other one showed the end.
    const late = w.addBuild(repo, { state: 'started', startedAt: '2030-03-01T10:00:00Z' });
    const lateRunning = await w.update(late);
    w.ci.state.updateBuild(late, { state: 'failed', finishedAt: '2030-03-01T10:02:00Z' });
    await b.notifier.handle(await w.update(late));
    await w.notifier.handle(lateRunning);

    const posted = parents(w.slack, channelId).filter((m) => !m.text.startsWith('*Failed'));
    assert.equal(posted.length, ids.length + 1);
    for (const message of posted) {
      assert.match(message.text, /failed/, `every message ends failed: ${message.text}`);
      assert.equal(replies(w.slack, channelId, message.ts).length, 1);
    }
    assert.deepEqual(w.slack.rejected(), []);
  });

  it('edits the same message after a restart of the app (a new process on the same Redis)', async () => {
    const repo = w.repo('restart-app');
    const channelId = channel();
    await w.subscribe(channelId, repo, { started: true });
    const id = w.addBuild(repo, { state: 'started' });
    await w.notifier.handle(await w.update(id));
    const [message] = parents(w.slack, channelId);
    assert.ok(message);

    const next = await w.replica();
    w.ci.state.updateBuild(id, { state: 'passed' });
    await next.notifier.handle(await w.update(id));
    const after = parents(w.slack, channelId);
    assert.equal(after.length, 1);
    assert.equal(after[0]?.ts, message.ts);
    assert.match(after[0]?.text ?? '', /passed/);
  });

  it('edits the same message when the build is restarted, with a failure reply per attempt', async () => {
    const repo = w.repo('restart-build');
    const channelId = channel();
    await w.subscribe(channelId, repo);
    const id = w.addBuild(repo, {
      state: 'failed',
      startedAt: '2030-01-01T10:00:00Z',
      finishedAt: '2030-01-01T10:05:00Z',
      duration: 300,
    });
    const failed = await w.update(id);
    await w.notifier.handle(failed);
    await w.notifier.handle(failed);
    const [message] = parents(w.slack, channelId);
    assert.ok(message);
    assert.match(message.text, /failed/);
    assert.equal(replies(w.slack, channelId, message.ts).length, 1, 'the same attempt is replied to once');

    w.ci.state.restartBuild(id);
    await w.notifier.handle(await w.update(id));
    assert.match(parents(w.slack, channelId)[0]?.text ?? '', /queued/);
    w.ci.state.updateBuild(id, { state: 'started', startedAt: '2030-01-01T11:00:00Z' });
    await w.notifier.handle(await w.update(id));
    w.ci.state.updateBuild(id, { state: 'errored', finishedAt: '2030-01-01T11:04:00Z', duration: 240 });
    await w.notifier.handle(await w.update(id));

    const all = parents(w.slack, channelId);
    assert.equal(all.length, 1, 'a restarted build edits its message');
    assert.match(all[0]?.text ?? '', /errored/);
    assert.match(shown(all[0] ?? { text: '' }), /in 4m/);
    assert.equal(replies(w.slack, channelId, message.ts).length, 2, 'the new attempt gets its own reply');
  });

  it('keeps the newest state when an older update arrives late', async () => {
    const repo = w.repo('late');
    const channelId = channel();
    await w.subscribe(channelId, repo, { started: true });
    const id = w.addBuild(repo, { state: 'started', startedAt: '2030-02-01T10:00:00Z' });
    const running = await w.update(id);
    w.ci.state.updateBuild(id, { state: 'passed', finishedAt: '2030-02-01T10:03:00Z' });
    await w.notifier.handle(await w.update(id));
    await w.notifier.handle(running);
    const [message, ...others] = parents(w.slack, channelId);
    assert.deepEqual(others, []);
    assert.match(message?.text ?? '', /passed/);
    assert.equal(message?.history.length, 0, 'the late update changed nothing');
  });
});
