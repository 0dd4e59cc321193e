import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { EventEmitter } from 'node:events';
import { createInterface } from 'node:readline';
import { it } from 'node:test';
import { fileURLToPath } from 'node:url';
import { describeUpdate, eventually, startWorld, waitUntil } from './watch-harness.js';

const LEASE_TTL_MS = 1_500;
const FIXTURE = fileURLToPath(new URL('./fixtures/watcher-process.ts', import.meta.url));

it('replaces a process killed with SIGKILL within two lease periods, without replaying its builds', async (t) => {
  const w = await startWorld({ realtime: false, env: { LEASE_TTL_MS: String(LEASE_TTL_MS) } });
  t.after(() => w.close());
  await w.link('U0RKH', 'rkh');
  const repos = Array.from({ length: 8 }, (_, i) => w.ci.state.addRepo({ slug: `team/svc-${i}` }));
  for (const repo of repos) await w.subscribe('C0SVC', repo.slug, 'U0RKH');

  const child = spawn(process.execPath, ['--import', 'tsx', FIXTURE], {
    env: {
      ...process.env,
      WATCH_CI_URL: w.ci.url,
      WATCH_SLACK_URL: w.slack.apiUrl,
      WATCH_PREFIX: w.prefix,
      WATCH_LEASE_TTL_MS: String(LEASE_TTL_MS),
      WATCH_POLL_MS: '100',
    },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  t.after(async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await exited;
  });
  const lines = new EventEmitter();
  let childHeld: string[] = [];
  const childChanges: string[] = [];
  createInterface({ input: child.stdout }).on('line', (line) => {
    const message = JSON.parse(line) as { type: string; held?: string[]; change?: string };
    if (message.type === 'held') childHeld = message.held ?? [];
    if (message.type === 'update' && message.change) childChanges.push(message.change);
    lines.emit('line');
  });
  await waitUntil(
    lines,
    'line',
    () => (childHeld.length === 8 ? true : undefined),
    'the child holding all',
    15_000,
  );

  const proc = await w.process();
  await eventually(() => proc.watcher.stats().held.length === 4 && childHeld.length === 4, 'four each');
  const builds = repos.map((repo) => w.ci.state.addBuild(repo, { state: 'started', jobs: 1 }));
  const announced = (change: string) =>
    childChanges.includes(change) || proc.sink.updates.some((u) => describeUpdate(u) === change);
  await eventually(() => builds.every((b) => announced(`${b.id}:started:started`)), 'every build announced');
  const childRepos = new Set(childHeld);
  const childBuilds = builds.filter((b) => childRepos.has(`com:${b.repositoryId}`));
  assert.equal(childBuilds.length, 4);

  child.kill('SIGKILL');
  await exited;
  const killedAt = Date.now();
  await eventually(() => proc.watcher.stats().held.length === 8, 'all eight taken over', 2 * LEASE_TTL_MS);
  const tookMs = Date.now() - killedAt;
  t.diagnostic(`taken over ${tookMs} ms after the kill (lease TTL ${LEASE_TTL_MS} ms)`);
  assert.ok(tookMs <= 2 * LEASE_TTL_MS, `taken over in ${tookMs} ms`);

  const polls = proc.watcher.stats().polls;
  await eventually(() => proc.watcher.stats().polls >= polls + 8, 'a poll of each repository taken over');
  const replayed = proc.sink.updates.filter((u) => childBuilds.some((b) => b.id === u.build.id));
  assert.deepEqual(replayed, [], 'builds the dead process announced are not announced again');

  for (const build of childBuilds) {
    for (const job of w.ci.state.jobsOf(build)) w.ci.state.updateJob(job.id, { state: 'passed' });
    w.ci.state.updateBuild(build.id, { state: 'passed' });
  }
  for (const build of childBuilds) {
    await proc.sink.waitFor(
      (u) => describeUpdate(u) === `${build.id}:passed:passed`,
      `build ${build.id} passed`,
    );
  }
  assert.equal(proc.sink.of(childBuilds[0]?.id ?? 0).length, 1);
});
