/**
 * Benchmark of the build watcher (issue 4 §9): N processes watching R repositories of a fake CI while
 * builds come and move at a steady rate. Reports CI requests per minute (by route), the delay from a
 * change in the fake CI to the update at a sink (p50/p95/max), and duplicates (target 0).
 *
 *   npx tsx bench/watch.ts                                   # 2 processes, 2,000 repositories, 60 s
 *   npx tsx bench/watch.ts --duration=20 --repos=500 --realtime=off --poll-ms=5000
 *
 * Options (all optional): --repos, --processes, --duration (s, builds are started during it),
 * --builds-per-min, --poll-ms, --lease-ttl-ms, --creators, --realtime=on|off.
 * Results go to bench/results/watch-<time>.json (not committed) and are printed as JSON.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem } from 'node:os';
import { fileURLToPath } from 'node:url';
import { type FakeCi, startFakeCi } from '../test/fakes/ci/index.js';
import { type FakePusher, startFakePusher } from '../test/fakes/pusher-server.js';
import { startFakeSlack } from '../test/fakes/slack/index.js';
import { closeServices, makeServices, TEAM, worldConfig } from '../test/notify/watch-harness.js';
import { deleteUnder } from '../test/store/harness.js';

const args = Object.fromEntries(
  process.argv.slice(2).map((arg) => {
    const [key, value] = arg.replace(/^--/, '').split('=');
    return [key ?? '', value ?? 'true'];
  }),
);
const num = (name: string, fallback: number) => (args[name] === undefined ? fallback : Number(args[name]));
const settings = {
  repos: num('repos', 2_000),
  processes: num('processes', 2),
  durationS: num('duration', 60),
  buildsPerMin: num('builds-per-min', 60),
  pollMs: num('poll-ms', 15_000),
  leaseTtlMs: num('lease-ttl-ms', 30_000),
  creators: num('creators', 50),
  realtime: args.realtime !== 'off',
};
const PUSHER = { key: 'bench-key', secret: 'bench-secret' };
const WORKER = fileURLToPath(new URL('./watch-worker.ts', import.meta.url));

interface Worker {
  held: number;
  polls: number;
  channels: number;
  final?: {
    stats: { requests: Record<string, number>; updates: Record<string, number> };
    cpuMs: number;
    peakRssMb: number;
  };
  exited: Promise<void>;
  send(message: object): void;
}

/** Per build: each state it went through (as `describeUpdate` writes it), when, and which were delivered. */
const timeline = new Map<number, { change: string; at: number; deliveredAt?: number }[]>();
const received = new Map<string, number>();
let duplicates = 0;
const sources = { poll: 0, realtime: 0 };

function recordChange(ci: FakeCi, buildId: number): void {
  const build = ci.state.getBuild(buildId);
  if (!build) return;
  const change = `${build.id}:${build.state}:${ci.state
    .jobsOf(build)
    .map((j) => j.state)
    .join(',')}`;
  const list = timeline.get(buildId) ?? [];
  if (list.at(-1)?.change !== change) list.push({ change, at: Date.now() });
  timeline.set(buildId, list);
}

function recordUpdate(change: string, at: number, source: 'poll' | 'realtime'): void {
  const count = (received.get(change) ?? 0) + 1;
  received.set(change, count);
  if (count > 1) duplicates += 1;
  sources[source] += 1;
  const list = timeline.get(Number(change.split(':')[0])) ?? [];
  const index = list.findIndex((entry) => entry.change === change);
  // This state, and every earlier one folded into it, reached a sink now.
  for (const entry of list.slice(0, index + 1)) entry.deliveredAt ??= at;
}

function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
}

function startWorker(env: Record<string, string>): Worker {
  const child = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  const worker: Worker = {
    held: 0,
    polls: 0,
    channels: 0,
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
    send: (message) => child.send(message),
  };
  child.on('message', (message: Record<string, unknown>) => {
    if (message.type === 'update')
      recordUpdate(
        String(message.change),
        Number(message.at),
        message.source === 'poll' ? 'poll' : 'realtime',
      );
    if (message.type === 'progress')
      Object.assign(worker, { held: message.held, polls: message.polls, channels: message.channels });
    if (message.type === 'final') worker.final = message as unknown as Worker['final'];
  });
  return worker;
}

async function waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** A build's life, sped up: queued a few seconds, two jobs, done within a minute. */
function runBuild(ci: FakeCi, repoId: number, timers: Set<NodeJS.Timeout>): void {
  const build = ci.state.addBuild(repoId, { state: 'created', jobs: 2 });
  recordChange(ci, build.id);
  const [job1, job2] = ci.state.jobsOf(build);
  if (!job1 || !job2) return;
  const at = (ms: number, step: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      step();
      recordChange(ci, build.id);
    }, ms);
    timers.add(timer);
  };
  const queued = 3_000 + Math.random() * 5_000;
  const firstDone = queued + 10_000 + Math.random() * 20_000;
  const failed = Math.random() < 0.2;
  at(queued, () => {
    ci.state.updateJob(job1.id, { state: 'started' });
    ci.state.updateBuild(build.id, { state: 'started' });
  });
  at(queued + 1_000, () => ci.state.updateJob(job2.id, { state: 'started' }));
  at(firstDone, () => ci.state.updateJob(job1.id, { state: 'passed' }));
  at(firstDone + 2_000 + Math.random() * 3_000, () => {
    ci.state.updateJob(job2.id, { state: failed ? 'failed' : 'passed' });
    ci.state.updateBuild(build.id, { state: failed ? 'failed' : 'passed' });
  });
}

async function main(): Promise<void> {
  const pusher: FakePusher | undefined = settings.realtime ? await startFakePusher(PUSHER) : undefined;
  const ci = await startFakeCi({
    seed: false,
    ...(pusher ? { pusher: { ...PUSHER, host: '127.0.0.1', port: pusher.port, scheme: 'ws' as const } } : {}),
  });
  if (pusher)
    ci.events.on('pusher', (m: { channel: string; event: string; data: unknown }) =>
      pusher.trigger(m.channel, m.event, m.data),
    );
  const slack = await startFakeSlack();
  const prefix = `bench:ci-slack:watch:${randomUUID()}:`;
  const config = worldConfig(ci.url, slack.apiUrl, { LEASE_TTL_MS: String(settings.leaseTtlMs) });
  const admin = makeServices(config, prefix);
  const setupStarted = Date.now();

  const logins = Array.from({ length: settings.creators }, (_, i) => `dev${i}`);
  for (const [i, login] of logins.entries()) {
    const user = ci.state.addUser({ login });
    await admin.accounts.link({
      teamId: TEAM,
      userId: `U0DEV${i}`,
      deployment: 'com',
      ciLogin: login,
      ciUserId: user.id,
      token: `token-${login}`,
    });
  }
  const repoIds: number[] = [];
  const anHourAgo = new Date(Date.now() - 3_600_000).toISOString();
  for (let i = 0; i < settings.repos; i++) {
    const creator = i % settings.creators;
    const repo = ci.state.addRepo({ slug: `org${i % 40}/repo-${i}`, private: i % 2 === 0 });
    ci.state.grant(logins[creator] ?? 'dev0', repo, 'admin');
    ci.state.addBuild(repo, { state: 'passed', jobs: 2, finishedAt: anHourAgo });
    await admin.subscriptions.upsert({
      teamId: TEAM,
      channelId: `C0BENCH${i % 20}`,
      deployment: 'com',
      target: { kind: 'repo', repoId: repo.id, slug: repo.slug },
      filters: {},
      createdBy: `U0DEV${creator}`,
    });
    repoIds.push(repo.id);
  }
  received.clear();
  console.error(`set up ${settings.repos} repositories in ${Date.now() - setupStarted} ms`);

  const env = {
    WATCH_CI_URL: ci.url,
    WATCH_SLACK_URL: slack.apiUrl,
    WATCH_PREFIX: prefix,
    WATCH_LEASE_TTL_MS: String(settings.leaseTtlMs),
    WATCH_POLL_MS: String(settings.pollMs),
    WATCH_REALTIME: settings.realtime ? 'on' : 'off',
  };
  const workers = Array.from({ length: settings.processes }, () => startWorker(env));
  const warmupStarted = Date.now();
  const share = settings.repos / settings.processes;
  await waitFor(
    () =>
      workers.reduce((n, w) => n + w.held, 0) === settings.repos &&
      workers.every((w) => Math.abs(w.held - share) <= 1),
    'leases split evenly',
    10 * settings.leaseTtlMs,
  );
  const splitMs = Date.now() - warmupStarted;
  // A full interval after the split, every repository has had its first poll and settled.
  await new Promise((resolve) => setTimeout(resolve, settings.pollMs + 1_000));
  const quietHistoryUpdates = [...received.values()].reduce((a, b) => a + b, 0);
  const heldAfterWarmup = workers.map((w) => w.held);

  ci.requests.length = 0;
  const measureStarted = Date.now();
  const timers = new Set<NodeJS.Timeout>();
  const gapMs = 60_000 / settings.buildsPerMin;
  let started = 0;
  const starter = setInterval(() => {
    if (Date.now() - measureStarted >= settings.durationS * 1_000) return;
    const repoId = repoIds[Math.floor(Math.random() * repoIds.length)];
    if (repoId !== undefined) runBuild(ci, repoId, timers);
    started += 1;
  }, gapMs);
  await new Promise((resolve) => setTimeout(resolve, settings.durationS * 1_000));
  clearInterval(starter);
  const measureMs = Date.now() - measureStarted;
  const requests = ci.requests.splice(0);
  // Let the builds under way finish and the last changes arrive.
  await waitFor(() => timers.size === 0, 'builds to finish', 120_000);
  const lastChangeAt = Date.now();
  await waitFor(
    () => [...timeline.values()].every((list) => list.every((entry) => entry.deliveredAt !== undefined)),
    'every change delivered',
    settings.pollMs * 3 + 10_000,
  ).catch((error: unknown) => console.error(String(error)));
  const drainMs = Date.now() - lastChangeAt;

  for (const worker of workers) worker.send({ type: 'stop' });
  await Promise.all(workers.map((w) => w.exited));

  const delays = [...timeline.values()]
    .flatMap((list) => list.flatMap((e) => (e.deliveredAt === undefined ? [] : [e.deliveredAt - e.at])))
    .sort((a, b) => a - b);
  const changes = [...timeline.values()].reduce((n, list) => n + list.length, 0);
  const byRoute: Record<string, number> = {};
  for (const request of requests) {
    const route = `${request.method} ${request.path.replace(/\/\d+/g, '/:id')}`;
    byRoute[route] = (byRoute[route] ?? 0) + 1;
  }
  const perMinute = (n: number) => Math.round((n * 60_000) / measureMs);
  const result = {
    settings,
    machine: {
      cpus: cpus().length,
      cpuModel: cpus()[0]?.model,
      memMb: Math.round(totalmem() / 1024 / 1024),
      node: process.version,
    },
    splitMs,
    heldAfterWarmup,
    quietHistoryUpdates,
    measureMs,
    buildsStarted: started,
    changes,
    delivered: delays.length,
    undelivered: changes - delays.length,
    updates: sources,
    duplicates,
    delayMs: {
      p50: percentile(delays, 50),
      p95: percentile(delays, 95),
      p99: percentile(delays, 99),
      max: delays.at(-1) ?? Number.NaN,
    },
    drainMs,
    ciRequestsPerMinute: perMinute(requests.length),
    ciRequestsPerMinuteByRoute: Object.fromEntries(
      Object.entries(byRoute).map(([route, n]) => [route, perMinute(n)]),
    ),
    workers: workers.map((w) => ({
      requestsByPurpose: w.final?.stats.requests,
      updates: w.final?.stats.updates,
      cpuMs: Math.round(w.final?.cpuMs ?? 0),
      peakRssMb: Math.round(w.final?.peakRssMb ?? 0),
    })),
  };
  mkdirSync(new URL('./results/', import.meta.url), { recursive: true });
  writeFileSync(
    new URL(`./results/watch-${Date.now()}.json`, import.meta.url),
    `${JSON.stringify(result, null, 2)}\n`,
  );
  console.log(JSON.stringify(result, null, 2));

  await closeServices(admin);
  await Promise.all([ci.close(), pusher?.close(), slack.close()]);
  await deleteUnder(prefix);
}

await main();
