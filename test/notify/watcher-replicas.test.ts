import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { BuildUpdate } from '../../src/notify/types.js';
import { describeUpdate, eventually, startWorld } from './watch-harness.js';

const USER = 'U0RKH';

describe('build watcher, two processes on one Redis', () => {
  it('splits 20 repositories evenly and hands every change to exactly one sink, once', async (t) => {
    const w = await startWorld({ env: { LEASE_TTL_MS: '1500' } });
    t.after(() => w.close());
    await w.link(USER, 'rkh');
    const repos = Array.from({ length: 20 }, (_, i) => {
      const repo = w.ci.state.addRepo({ slug: `team/app-${i}`, private: i % 2 === 0 });
      w.ci.state.grant('rkh', repo, 'admin');
      return repo;
    });
    for (const repo of repos) await w.subscribe(`C0CH${repo.id % 3}`, repo.slug, USER);

    const [a, b] = await Promise.all([w.process(), w.process()]);
    assert.ok(a && b);
    await eventually(
      () => a.watcher.stats().held.length === 10 && b.watcher.stats().held.length === 10,
      'ten repositories each',
    );
    const heldByA = new Set(a.watcher.stats().held);
    assert.equal(new Set([...heldByA, ...b.watcher.stats().held]).size, 20, 'every repository held once');

    const builds = repos.map((repo) => w.ci.state.addBuild(repo, { state: 'created', jobs: 2 }));
    for (const build of builds) {
      for (const job of w.ci.state.jobsOf(build)) w.ci.state.updateJob(job.id, { state: 'started' });
      w.ci.state.updateBuild(build.id, { state: 'started' });
    }
    const all = () => [...a.sink.updates, ...b.sink.updates];
    await eventually(
      () =>
        builds.every((build) =>
          all().some((u) => describeUpdate(u) === `${build.id}:started:started,started`),
        ),
      'every build started',
    );
    for (const build of builds) {
      for (const job of w.ci.state.jobsOf(build)) w.ci.state.updateJob(job.id, { state: 'failed' });
      w.ci.state.updateBuild(build.id, { state: 'failed' });
    }
    await eventually(
      () =>
        builds.every((build) => all().some((u) => describeUpdate(u) === `${build.id}:failed:failed,failed`)),
      'every build failed',
    );
    const polls = a.watcher.stats().polls + b.watcher.stats().polls;
    await eventually(
      () => a.watcher.stats().polls + b.watcher.stats().polls >= polls + 40,
      'two more polls of each',
    );

    const seen = new Map<string, BuildUpdate[]>();
    for (const update of all())
      seen.set(describeUpdate(update), [...(seen.get(describeUpdate(update)) ?? []), update]);
    const duplicates = [...seen].filter(([, updates]) => updates.length > 1).map(([change]) => change);
    assert.deepEqual(duplicates, [], 'no change reached a sink twice');
    assert.ok(a.sink.updates.length > 0 && b.sink.updates.length > 0, 'both processes did their share');
    assert.equal(new Set([...a.watcher.stats().held, ...b.watcher.stats().held]).size, 20);
  });

  it('hands repositories over at once when a process stops', async (t) => {
    const w = await startWorld({ realtime: false, env: { LEASE_TTL_MS: '3000' } });
    t.after(() => w.close());
    await w.link(USER, 'rkh');
    for (let i = 0; i < 6; i++) {
      const repo = w.ci.state.addRepo({ slug: `team/lib-${i}` });
      await w.subscribe('C0LIBS', repo.slug, USER);
    }
    const [a, b] = await Promise.all([w.process(), w.process()]);
    assert.ok(a && b);
    await eventually(
      () => a.watcher.stats().held.length === 3 && b.watcher.stats().held.length === 3,
      'three each',
      8_000,
    );
    const stoppedAt = Date.now();
    await a.close();
    await eventually(() => b.watcher.stats().held.length === 6, 'all six with b');
    // At b's next round (a third of the lease), without waiting for a's leases to expire.
    assert.ok(Date.now() - stoppedAt < 3_000, `took ${Date.now() - stoppedAt} ms`);
  });

  it('pauses a subscription whose token is refused, tells its channel once, and watches with the next subscriber', async (t) => {
    const w = await startWorld({ realtime: false });
    t.after(() => w.close());
    w.ci.state.addUser({ login: 'alice' });
    await w.link('U0ALICE', 'alice');
    await w.link(USER, 'rkh');
    const repos = Array.from({ length: 4 }, (_, i) => w.ci.state.addRepo({ slug: `alice/tool-${i}` }));
    const older = await w.subscribe('C0ALICE', 'alice/*', 'U0ALICE');
    await w.subscribe('C0RKH', 'alice/*', USER);

    const [a, b] = await Promise.all([w.process(), w.process()]);
    assert.ok(a && b);
    await eventually(
      () => a.watcher.stats().held.length === 2 && b.watcher.stats().held.length === 2,
      'two each',
    );
    const usedToken = (token: string) =>
      repos.every((repo) =>
        w.ci.requests.some(
          (r) => r.path === `/repos/${repo.id}/builds` && r.headers.authorization === `token ${token}`,
        ),
      );
    await eventually(() => usedToken('token-alice'), "polls with alice's token, the oldest subscription's");

    w.ci.state.revokeToken('token-alice');
    const builds = repos.map((repo) => w.ci.state.addBuild(repo, { state: 'started', jobs: 1 }));
    await eventually(
      () =>
        builds.every((build) => [...a.sink.updates, ...b.sink.updates].some((u) => u.build.id === build.id)),
      'every new build, watched with the next token',
    );
    assert.ok(usedToken('token-rkh'));
    const notice = await w.slack.waitForCall('chat.postMessage');
    assert.equal(notice.args.channel, 'C0ALICE');
    assert.equal(
      notice.args.text,
      "I paused the subscription to alice/*: <@U0ALICE>'s travis-ci.com token no longer works. Anyone with access can `/ci subscribe alice/*` again.",
    );
    const polls = a.watcher.stats().polls + b.watcher.stats().polls;
    await eventually(() => a.watcher.stats().polls + b.watcher.stats().polls >= polls + 8, 'more polls');
    await a.services.outbox.drain(2_000);
    await b.services.outbox.drain(2_000);
    assert.equal(w.slack.callsTo('chat.postMessage').length, 1, 'the channel was told once');
    const paused = await w.admin.subscriptions.get(older.id);
    assert.equal(paused?.status, 'paused');
    assert.equal(paused?.pausedReason, 'token_rejected');
    assert.deepEqual(w.slack.rejected(), []);
  });
});
