/**
 * One run of the watcher benchmark (see bench/watch.ts): a fake CI with R repositories, N watcher
 * processes (bench/watch-worker.ts), builds started at a steady rate for a while; returns what was
 * measured. The timeline of every build state and the updates the sinks got are kept per run.
 */
import { fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { fileURLToPath } from 'node:url';
import { type FakeCi, startFakeCi } from '../test/fakes/ci/index.js';
import { type FakePusher, startFakePusher } from '../test/fakes/pusher-server.js';
import { startFakeSlack } from '../test/fakes/slack/index.js';
import { closeServices, makeServices, TEAM, worldConfig } from '../test/notify/watch-harness.js';
import { deleteUnder } from '../test/store/harness.js';

export interface ScenarioSettings {
  name: string;
  repos: number;
  processes: number;
  seconds: number;
  buildsPerMin: number;
  pollMs: number;
  leaseTtlMs: number;
  creators: number;
  realtime: boolean;
}

export interface WorkerReport {
  requestsByPurpose: Record<string, number>;
  updates: Record<string, number>;
  cpuMs: number;
  peakRssMb: number;
}

export interface ScenarioResult {
  settings: ScenarioSettings;
  splitMs: number;
  heldAfterWarmup: number[];
  quietHistoryUpdates: number;
  measureMs: number;
  buildsStarted: number;
  changes: number;
  undelivered: number;
  updates: { poll: number; realtime: number };
  duplicates: number;
  delayMs: { p50: number; p95: number; p99: number; max: number };
  ciRequestsPerMinute: number;
  ciRequestsPerMinuteByRoute: Record<string, number>;
  workers: WorkerReport[];
}

const PUSHER = { key: 'bench-key', secret: 'bench-secret' };
const WORKER = fileURLToPath(new URL('./watch-worker.ts', import.meta.url));

interface Worker {
  held: number;
  final?: {
    stats: { requests: Record<string, number>; updates: Record<string, number> };
    cpuMs: number;
    peakRssMb: number;
  };
  exited: Promise<void>;
  send(message: object): void;
}

/** Every state each build went through (as `describeUpdate` writes it), when, and when it reached a sink. */
class Timeline {
  readonly builds = new Map<number, { change: string; at: number; deliveredAt?: number }[]>();
  readonly received = new Map<string, number>();
  duplicates = 0;
  readonly sources = { poll: 0, realtime: 0 };

  change(ci: FakeCi, buildId: number): void {
    const build = ci.state.getBuild(buildId);
    if (!build) return;
    const change = `${build.id}:${build.state}:${ci.state
      .jobsOf(build)
      .map((j) => j.state)
      .join(',')}`;
    const list = this.builds.get(buildId) ?? [];
    if (list.at(-1)?.change !== change) list.push({ change, at: Date.now() });
    this.builds.set(buildId, list);
  }

  update(change: string, at: number, source: 'poll' | 'realtime'): void {
    const count = (this.received.get(change) ?? 0) + 1;
    this.received.set(change, count);
    if (count > 1) this.duplicates += 1;
    this.sources[source] += 1;
    const list = this.builds.get(Number(change.split(':')[0])) ?? [];
    const index = list.findIndex((entry) => entry.change === change);
    // This state, and every earlier one folded into it, reached a sink now.
    for (const entry of list.slice(0, index + 1)) entry.deliveredAt ??= at;
  }

  get allDelivered(): boolean {
    return [...this.builds.values()].every((list) => list.every((entry) => entry.deliveredAt !== undefined));
  }
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return (
    sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN
  );
}

async function waitFor(condition: () => boolean, what: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function startWorker(env: Record<string, string>, timeline: Timeline): Worker {
  const child = fork(WORKER, [], {
    execArgv: ['--import', 'tsx'],
    env: { ...process.env, ...env },
    stdio: 'inherit',
  });
  const worker: Worker = {
    held: 0,
    exited: new Promise((resolve) => child.once('exit', () => resolve())),
    send: (message) => child.send(message),
  };
  child.on('message', (message: Record<string, unknown>) => {
    if (message.type === 'update') {
      timeline.update(
        String(message.change),
        Number(message.at),
        message.source === 'poll' ? 'poll' : 'realtime',
      );
    }
    if (message.type === 'progress') worker.held = Number(message.held);
    if (message.type === 'final') worker.final = message as unknown as Worker['final'];
  });
  return worker;
}

/** A build's life, sped up: queued a few seconds, two jobs, done within a minute. */
function runBuild(ci: FakeCi, repoId: number, timeline: Timeline, timers: Set<NodeJS.Timeout>): void {
  const build = ci.state.addBuild(repoId, { state: 'created', jobs: 2 });
  timeline.change(ci, build.id);
  const [job1, job2] = ci.state.jobsOf(build);
  if (!job1 || !job2) return;
  const at = (ms: number, step: () => void) => {
    const timer = setTimeout(() => {
      timers.delete(timer);
      step();
      timeline.change(ci, build.id);
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

export async function runScenario(settings: ScenarioSettings): Promise<ScenarioResult> {
  const timeline = new Timeline();
  const pusher: FakePusher | undefined = settings.realtime ? await startFakePusher(PUSHER) : undefined;
  const ci = await startFakeCi({
    seed: false,
    ...(pusher ? { pusher: { ...PUSHER, host: '127.0.0.1', port: pusher.port, scheme: 'ws' as const } } : {}),
  });
  if (pusher) {
    ci.events.on('pusher', (m: { channel: string; event: string; data: unknown }) =>
      pusher.trigger(m.channel, m.event, m.data),
    );
  }
  const slack = await startFakeSlack();
  const prefix = `bench:ci-slack:watch:${randomUUID()}:`;
  const config = worldConfig(ci.url, slack.apiUrl, { LEASE_TTL_MS: String(settings.leaseTtlMs) });
  const admin = makeServices(config, prefix);

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

  const env = {
    WATCH_CI_URL: ci.url,
    WATCH_SLACK_URL: slack.apiUrl,
    WATCH_PREFIX: prefix,
    WATCH_LEASE_TTL_MS: String(settings.leaseTtlMs),
    WATCH_POLL_MS: String(settings.pollMs),
    WATCH_REALTIME: settings.realtime ? 'on' : 'off',
  };
  const workers = Array.from({ length: settings.processes }, () => startWorker(env, timeline));
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
  await sleep(settings.pollMs + 1_000);
  const quietHistoryUpdates = timeline.sources.poll + timeline.sources.realtime;
  const heldAfterWarmup = workers.map((w) => w.held);

  ci.requests.length = 0;
  const measureStarted = Date.now();
  const timers = new Set<NodeJS.Timeout>();
  let buildsStarted = 0;
  const starter = setInterval(() => {
    const repoId = repoIds[Math.floor(Math.random() * repoIds.length)];
    if (repoId === undefined) return;
    runBuild(ci, repoId, timeline, timers);
    buildsStarted += 1;
  }, 60_000 / settings.buildsPerMin);
  await sleep(settings.seconds * 1_000);
  clearInterval(starter);
  const measureMs = Date.now() - measureStarted;
  const requests = ci.requests.splice(0);
  // Let the builds under way finish and the last changes arrive.
  await waitFor(() => timers.size === 0, 'builds to finish', 120_000);
  await waitFor(() => timeline.allDelivered, 'every change delivered', settings.pollMs * 3 + 10_000).catch(
    (error: unknown) => console.error(String(error)),
  );

  for (const worker of workers) worker.send({ type: 'stop' });
  await Promise.all(workers.map((w) => w.exited));
  await closeServices(admin);
  await Promise.all([ci.close(), pusher?.close(), slack.close()]);
  await deleteUnder(prefix);

  const entries = [...timeline.builds.values()].flat();
  const delays = entries
    .flatMap((e) => (e.deliveredAt === undefined ? [] : [e.deliveredAt - e.at]))
    .sort((a, b) => a - b);
  const byRoute: Record<string, number> = {};
  for (const request of requests) {
    const route = `${request.method} ${request.path.replace(/\/\d+/g, '/:id')}`;
    byRoute[route] = (byRoute[route] ?? 0) + 1;
  }
  const perMinute = (n: number) => Math.round((n * 60_000) / measureMs);
  return {
    settings,
    splitMs,
    heldAfterWarmup,
    quietHistoryUpdates,
    measureMs,
    buildsStarted,
    changes: entries.length,
    undelivered: entries.length - delays.length,
    updates: timeline.sources,
    duplicates: timeline.duplicates,
    delayMs: {
      p50: percentile(delays, 50),
      p95: percentile(delays, 95),
      p99: percentile(delays, 99),
      max: delays.at(-1) ?? Number.NaN,
    },
    ciRequestsPerMinute: perMinute(requests.length),
    ciRequestsPerMinuteByRoute: Object.fromEntries(
      Object.entries(byRoute).map(([route, n]) => [route, perMinute(n)]),
    ),
    workers: workers.map((w) => ({
      requestsByPurpose: w.final?.stats.requests ?? {},
      updates: w.final?.stats.updates ?? {},
      cpuMs: Math.round(w.final?.cpuMs ?? 0),
      peakRssMb: Math.round(w.final?.peakRssMb ?? 0),
    })),
  };
}
