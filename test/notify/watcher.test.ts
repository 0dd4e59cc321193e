import assert from 'node:assert/strict';
import type { TestContext } from 'node:test';
import { describe, it } from 'node:test';
import {
  describeUpdate,
  eventually,
  startWorld,
  type WatchWorld,
  type WorldOptions,
} from './watch-harness.js';

const CHANNEL = 'C0WATCH1';
const USER = 'U0RKH';

async function world(t: TestContext, options?: WorldOptions): Promise<WatchWorld> {
  const w = await startWorld(options);
  t.after(() => w.close());
  await w.link(USER, 'rkh');
  return w;
}

/** Distinct descriptions of a build's updates, and how many there were. */
function changesOf(updates: { build: { id: number } }[], buildId: number, describe: (u: never) => string) {
  return updates.filter((u) => u.build.id === buildId).map((u) => describe(u as never));
}

describe('build watcher, one process', () => {
  it('hands each new build and each state change to the sink once, from realtime and polling without duplicates', async (t) => {
    const w = await world(t);
    await w.subscribe(CHANNEL, 'rails/rails', USER);
    const proc = await w.process();
    const { sink, watcher } = proc;
    await w.pusher?.waitForSubscription('private-user-267');
    await eventually(() => watcher.stats().polls >= 2, 'two polls');
    assert.deepEqual(sink.updates, [], 'the history of a newly watched repository stays quiet');

    const build = w.ci.state.addBuild('rails/rails', { state: 'created', jobs: 2 });
    const [job1, job2] = w.ci.state.jobsOf(build);
    assert.ok(job1 && job2);
    const steps: (() => void)[] = [
      () => w.ci.state.updateJob(job1.id, { state: 'started' }),
      () => w.ci.state.updateBuild(build.id, { state: 'started' }),
      () => w.ci.state.updateJob(job2.id, { state: 'started' }),
      () => w.ci.state.updateJob(job1.id, { state: 'passed' }),
      () => w.ci.state.updateJob(job2.id, { state: 'passed' }),
      () => w.ci.state.updateBuild(build.id, { state: 'passed' }),
    ];
    const expected = [
      `${build.id}:created:created,created`,
      `${build.id}:created:started,created`,
      `${build.id}:started:started,created`,
      `${build.id}:started:started,started`,
      `${build.id}:started:passed,started`,
      `${build.id}:started:passed,passed`,
      `${build.id}:passed:passed,passed`,
    ];
    for (const [index, description] of expected.entries()) {
      await sink.waitFor((u) => describeUpdate(u) === description, description);
      steps[index]?.();
    }
    const polled = watcher.stats().polls;
    await eventually(() => watcher.stats().polls >= polled + 3, 'three more polls');

    assert.deepEqual(
      changesOf(sink.updates, build.id, describeUpdate),
      expected,
      'each change once, in order',
    );
    assert.ok(
      sink.of(build.id).some((u) => u.source === 'realtime'),
      'realtime fed the sink',
    );
    const last = sink.of(build.id).at(-1);
    assert.equal(last?.repo.slug, 'rails/rails');
    assert.equal(last?.deployment, 'com');
    assert.equal(last?.commit?.id, build.commitId);
    assert.equal(sink.updates.length, expected.length, 'nothing else was announced');
  });

  it('resolves a _no_full_payload event over REST', async (t) => {
    const w = await world(t);
    await w.subscribe(CHANNEL, 'rails/rails', USER);
    // Polls are far apart: after the first one, only realtime can bring the build in time.
    const proc = await w.process({ pollIntervalMs: 60_000 });
    await w.pusher?.waitForSubscription('private-user-267');
    await eventually(() => proc.watcher.stats().polls >= 1, 'the first poll');

    const pushed: unknown[] = [];
    w.ci.events.on('pusher', (m: { event: string; data: unknown }) => {
      if (m.event === 'build:created') pushed.push(m.data);
    });
    const build = w.ci.state.addBuild('rails/rails', {
      state: 'started',
      jobs: 3,
      message: 'x'.repeat(12_000),
    });
    assert.ok(pushed.length > 0);
    for (const data of pushed) {
      assert.deepEqual(data, { build: { id: build.id }, _no_full_payload: true }, 'the service sent stubs');
    }

    const update = await proc.sink.waitFor((u) => u.build.id === build.id, 'the big build');
    assert.equal(update.source, 'realtime');
    assert.equal(update.jobs.length, 3);
    assert.equal(update.commit?.message, 'x'.repeat(12_000));
    assert.ok(proc.watcher.stats().requests.realtime_resolve >= 1);
    assert.ok(w.ci.requests.some((r) => r.method === 'GET' && r.path === `/builds/${build.id}`));
  });

  it('polls alone when the deployment has no realtime service', async (t) => {
    const w = await world(t);
    w.ci.fault(
      { method: 'GET', path: '/config' },
      { status: 200, body: '{"config":{"host":"travis-ci.com"}}' },
    );
    await w.subscribe(CHANNEL, 'rails/rails', USER);
    const proc = await w.process();
    await eventually(() => proc.watcher.stats().polls >= 2, 'two polls');

    const build = w.ci.state.addBuild('rails/rails', { state: 'created', jobs: 1 });
    await proc.sink.waitFor((u) => describeUpdate(u) === `${build.id}:created:created`, 'the new build');
    w.ci.state.cancelBuild(build.id);
    await proc.sink.waitFor(
      (u) => describeUpdate(u) === `${build.id}:canceled:canceled`,
      'the canceled build',
    );
    assert.deepEqual(
      proc.sink.updates.map((u) => u.source),
      ['poll', 'poll'],
    );
    assert.deepEqual(proc.watcher.stats().realtimeChannels, []);
  });

  it('polls every held repository at once after a realtime reconnect', async (t) => {
    const w = await world(t);
    const pusher = w.pusher;
    assert.ok(pusher);
    await w.subscribe(CHANNEL, 'rails/rails', USER);
    const proc = await w.process({ pollIntervalMs: 60_000 });
    await pusher.waitForSubscription('private-user-267');
    await eventually(() => proc.watcher.stats().polls >= 1, 'the first poll');

    pusher.refuseConnections(true);
    pusher.dropAll();
    // Missed by realtime: nobody is connected when it is announced.
    const build = w.ci.state.addBuild('rails/rails', { state: 'started', jobs: 1 });
    await eventually(() => pusher.refusedCount() >= 1, 'a refused reconnect');
    pusher.refuseConnections(false);

    const update = await proc.sink.waitFor((u) => u.build.id === build.id, 'the missed build', 4_000);
    assert.equal(update.source, 'poll');
    const listed = w.ci.requests.filter((r) => r.path === '/repos/891/builds');
    assert.equal(
      listed.length,
      2,
      'the first poll, and one right after the reconnect (the interval is a minute)',
    );
  });

  it('announces unfinished builds and ones that just finished the first time a repository is watched', async (t) => {
    const w = await world(t);
    const running = w.ci.state.addBuild('rails/rails', { state: 'started', jobs: 1 });
    const justDone = w.ci.state.addBuild('rails/rails', { state: 'passed', jobs: 1 });
    const old = w.ci.state.addBuild('rails/rails', {
      state: 'failed',
      jobs: 1,
      finishedAt: new Date(Date.now() - 60 * 60_000).toISOString(),
    });
    await w.subscribe(CHANNEL, 'rails/rails', USER);
    const proc = await w.process({ realtime: false, announceWindowMs: 30_000 });
    await eventually(() => proc.watcher.stats().polls >= 2, 'two polls');
    assert.deepEqual(
      proc.sink.updates.map((u) => u.build.id).sort(),
      [running.id, justDone.id].sort(),
      `not the seeded build nor #${old.number}, which finished an hour ago`,
    );
  });

  it('does not announce again after a restart on the same Redis, and carries on with new changes', async (t) => {
    const w = await world(t);
    await w.subscribe(CHANNEL, 'rails/rails', USER);
    const first = await w.process({ realtime: false });
    const build = w.ci.state.addBuild('rails/rails', { state: 'started', jobs: 1 });
    await first.sink.waitFor((u) => u.build.id === build.id, 'the build');
    await first.close();

    const second = await w.process({ realtime: false });
    assert.notEqual(second.watcher.processId, first.watcher.processId);
    await eventually(() => second.watcher.stats().polls >= 3, 'three polls of the new process');
    assert.deepEqual(second.sink.updates, [], 'nothing seen before is replayed');

    w.ci.state.updateBuild(build.id, { state: 'errored' });
    const update = await second.sink.waitFor((u) => u.build.id === build.id, 'the change');
    assert.equal(update.build.state, 'errored');
    assert.equal(second.sink.updates.length, 1);
  });

  it('follows an unfinished build after it dropped off the first page, and reads further pages after a burst', async (t) => {
    const w = await world(t);
    await w.subscribe(CHANNEL, 'rails/rails', USER);
    const proc = await w.process({ realtime: false });
    const slow = w.ci.state.addBuild('rails/rails', { state: 'started', jobs: 1 });
    await proc.sink.waitFor((u) => u.build.id === slow.id, 'the slow build');
    for (let i = 0; i < 30; i++) w.ci.state.addBuild('rails/rails', { state: 'passed', jobs: 1 });
    await eventually(() => proc.sink.updates.length >= 31, 'the 30 newer builds');
    w.ci.state.updateBuild(slow.id, { state: 'failed' });
    const update = await proc.sink.waitFor(
      (u) => u.build.id === slow.id && u.build.state === 'failed',
      'its end',
    );
    assert.equal(update.source, 'poll');
    assert.ok(
      w.ci.requests.some((r) => r.path === `/builds/${slow.id}`),
      'fetched by id',
    );
  });

  it('lists owner subscriptions again and watches the repositories that appeared', async (t) => {
    const w = await world(t);
    w.ci.state.addRepo({ slug: 'rkh/first' });
    await w.subscribe(CHANNEL, 'rkh/*', USER);
    const proc = await w.process({ realtime: false, refreshEveryPolls: 2 });
    await eventually(() => proc.watcher.stats().held.length === 2, 'rkh/first and rkh/secret-project');

    const added = w.ci.state.addRepo({ slug: 'rkh/second' });
    await eventually(
      () => proc.watcher.stats().held.includes(`com:${added.id}`),
      'rkh/second watched',
      4_000,
    );
    assert.ok(proc.watcher.stats().requests.owner_refresh >= 1);
    const build = w.ci.state.addBuild(added, { state: 'created', jobs: 1 });
    const update = await proc.sink.waitFor((u) => u.build.id === build.id, 'a build of the new repository');
    assert.equal(update.repo.slug, 'rkh/second');
  });
});
