/**
 * Live log tails at scale: one app process follows many running jobs whose parts stream through a
 * fake Pusher server, and edits their tails in a fake Slack that enforces rate limits.
 *
 *   npx tsx bench/follow.ts                              # 1,000 jobs × 10 parts/s × 60 s
 *   npx tsx bench/follow.ts --jobs 50 --seconds 10      # a short run
 *   npx tsx bench/follow.ts --budget default            # Slack's default chat.update tier (50/min)
 *
 * The world (fake CI, fake Pusher, fake Slack, the part generator and the measurements) runs in
 * this process; the app runs in a child process (bench/follow-app.ts), so its CPU time and peak
 * RSS are its own. See bench/follow.md for the method and results.
 */
import { type ChildProcess, fork } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { availableParallelism, freemem, loadavg, totalmem } from 'node:os';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { webApi } from '@slack/bolt';
import { createLogger } from '../src/log.js';
import { BuildMessages } from '../src/store/build-messages.js';
import { createRedis, RedisKv } from '../src/store/redis-kv.js';
import { startFakeCi } from '../test/fakes/ci/index.js';
import { startFakePusher } from '../test/fakes/pusher-server.js';
import { FAKE_IDENTITY, type SlackCall, startFakeSlack } from '../test/fakes/slack/index.js';
import { deleteUnder } from '../test/store/harness.js';
import type { AppReport, FollowTarget, FromApp, ToApp } from './follow-protocol.js';
import { compileEntry } from './lib/compile.js';
import { type StartCommand, startCommand } from './lib/start-flags.js';

const REDIS_URL = process.env.REDIS_URL ?? 'redis://127.0.0.1:6379';
const TEAM = FAKE_IDENTITY.teamId;
const TICK_MS = 10;

interface Options {
  jobs: number;
  /** Parts per second per job. */
  rate: number;
  seconds: number;
  /** LOG_UPDATE_INTERVAL_MS. */
  intervalMs: number;
  /** chat.update per minute for the workspace (app budget and fake Slack limit), or Slack's default. */
  budget: number | 'default';
  jobsPerChannel: number;
  partChars: number;
  json: string | undefined;
  tsx: boolean;
  /** The app's node flags (e.g. `--max-semi-space-size=2`) and environment settings. */
  launch: StartCommand;
}

function readOptions(): Options {
  const { values } = parseArgs({
    options: {
      jobs: { type: 'string', default: '1000' },
      rate: { type: 'string', default: '10' },
      seconds: { type: 'string', default: '60' },
      interval: { type: 'string', default: '2000' },
      budget: { type: 'string' },
      'jobs-per-channel': { type: 'string', default: '3' },
      'part-chars': { type: 'string', default: '100' },
      json: { type: 'string' },
      tsx: { type: 'boolean', default: false },
      'node-options': { type: 'string' },
    },
  });
  const number = (name: string, text: string | undefined) => {
    const value = Number(text);
    if (!Number.isFinite(value) || value <= 0) throw new Error(`--${name} must be a positive number`);
    return value;
  };
  const jobs = Math.round(number('jobs', values.jobs));
  const intervalMs = Math.round(number('interval', values.interval));
  // Enough for one edit per job per interval, plus a fifth for headroom and the final edits.
  const needed = Math.ceil(((jobs * 60_000) / intervalMs) * 1.2);
  return {
    jobs,
    rate: number('rate', values.rate),
    seconds: number('seconds', values.seconds),
    intervalMs,
    budget:
      values.budget === 'default' ? 'default' : values.budget ? number('budget', values.budget) : needed,
    jobsPerChannel: Math.round(number('jobs-per-channel', values['jobs-per-channel'])),
    partChars: Math.round(number('part-chars', values['part-chars'])),
    json: values.json,
    tsx: values.tsx ?? false,
    // Unset: the flags and settings of `npm start`; `--node-options=none`: Node's defaults.
    launch:
      values['node-options'] === undefined
        ? startCommand()
        : {
            env: {},
            flags: values['node-options'].split(/\s+/).filter((flag) => flag !== '' && flag !== 'none'),
          },
  };
}

/** 429 answers among `calls`, per method. */
function limitedIn(calls: SlackCall[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const call of calls) if (call.status === 429) counts[call.method] = (counts[call.method] ?? 0) + 1;
  return counts;
}

function percentile(sorted: Float64Array, p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

/**
 * The app runs as compiled JavaScript, as `npm start` runs it (tsx's on-the-fly compiler alone
 * costs about 25 MB of RSS); `--tsx` skips the compile for a quick look.
 */
function compileApp(useTsx: boolean, nodeOptions: string[]): { entry: string; execArgv: string[] } {
  const source = new URL('./follow-app.ts', import.meta.url);
  const diagnose = [...nodeOptions, ...(process.env.BENCH_DIAGNOSE ? ['--expose-gc'] : [])];
  if (useTsx) return { entry: fileURLToPath(source), execArgv: ['--import', 'tsx', ...diagnose] };
  return { entry: compileEntry(source), execArgv: diagnose };
}

class AppProcess {
  readonly #child: ChildProcess;
  readonly #waiting: Array<(message: FromApp) => boolean> = [];

  constructor(app: { entry: string; execArgv: string[] }, env: Record<string, string>) {
    this.#child = fork(app.entry, [], {
      execArgv: app.execArgv,
      // A wrapper in place of node (e.g. one that runs it under heaptrack): bench/follow.md.
      ...(process.env.BENCH_EXEC_PATH ? { execPath: process.env.BENCH_EXEC_PATH } : {}),
      env: { ...process.env, ...env },
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    this.#child.on('message', (message: FromApp) => {
      const index = this.#waiting.findIndex((accept) => accept(message));
      if (index >= 0) this.#waiting.splice(index, 1);
    });
  }

  send(message: ToApp): void {
    this.#child.send(message);
  }

  next<T extends FromApp['type']>(type: T): Promise<Extract<FromApp, { type: T }>> {
    return new Promise((resolve) => {
      this.#waiting.push((message) => {
        if (message.type !== type) return false;
        resolve(message as Extract<FromApp, { type: T }>);
        return true;
      });
    });
  }

  async report(): Promise<AppReport> {
    const answer = this.next('report');
    this.send({ type: 'report' });
    return (await answer).report;
  }

  async stop(): Promise<void> {
    const exited = new Promise((resolve) => this.#child.once('exit', resolve));
    this.send({ type: 'stop' });
    await Promise.race([exited, sleep(10_000)]);
    this.#child.kill();
  }
}

async function main(): Promise<void> {
  const o = readOptions();
  const budgetText = o.budget === 'default' ? 'default tier (50/min)' : `${o.budget}/min`;
  console.log(
    `follow bench: ${o.jobs} jobs × ${o.rate} parts/s × ${o.seconds} s, update interval ${o.intervalMs} ms, chat.update budget ${budgetText}`,
  );
  const settings = Object.entries(o.launch.env).map(([name, value]) => `${name}=${value}`);
  console.log(`app process: ${[...settings, 'node', ...o.launch.flags].join(' ')}`);

  const loadAtStart = loadavg().map((n) => Number(n.toFixed(2)));
  const pusher = await startFakePusher({ key: 'bench-key', secret: 'bench-secret' });
  const ci = await startFakeCi({
    pusher: { key: 'bench-key', secret: 'bench-secret', host: '127.0.0.1', port: pusher.port, scheme: 'ws' },
  });
  const slack = await startFakeSlack({
    enforceRateLimits: true,
    ...(o.budget === 'default' ? {} : { rateLimits: { 'chat.update': o.budget } }),
  });
  const prefix = `bench:ci-slack:follow:${randomUUID()}:`;
  const kv = new RedisKv(createRedis(REDIS_URL, createLogger('silent')), { prefix });

  // Builds of `jobsPerChannel` running jobs, each announced in a channel of its own (as
  // notifications do), so each tail is one thread reply under its build's message.
  const jobIds: number[] = [];
  const targets: FollowTarget[] = [];
  const web = new webApi.WebClient(FAKE_IDENTITY.botToken, { slackApiUrl: slack.apiUrl });
  for (let b = 0; jobIds.length < o.jobs; b++) {
    const count = Math.min(o.jobsPerChannel, o.jobs - jobIds.length);
    const build = ci.state.addBuild('rails/rails', { state: 'started', jobs: count });
    const channelId = `C0BENCH${b}`;
    const posted = await web.chat.postMessage({ channel: channelId, text: `build ${build.number}` });
    await new BuildMessages(kv).set(
      { deployment: 'com', buildId: build.id, teamId: TEAM, channelId },
      { channel: channelId, ts: String(posted.ts) },
    );
    for (const jobId of build.jobIds) {
      jobIds.push(jobId);
      targets.push({ jobId, channelId });
    }
  }
  const warmupCalls = slack.calls.length;
  // Each channel's posting allowance (a burst of 3, then 1 a second) refills before the app posts.
  await sleep(3_000);

  const app = new AppProcess(compileApp(o.tsx, o.launch.flags), {
    ...o.launch.env,
    BENCH_REDIS_PREFIX: prefix,
    SLACK_BOT_TOKEN: FAKE_IDENTITY.botToken,
    SLACK_SIGNING_SECRET: 'bench-signing-secret',
    SLACK_APP_TOKEN: '',
    PORT: '0',
    SLACK_API_URL: slack.apiUrl,
    REDIS_URL,
    TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 9).toString('base64'),
    CI_COM_API_URL: ci.url,
    CI_COM_WEB_URL: 'https://app.travis-ci.com',
    CI_ORG_API_URL: '',
    CI_ENTERPRISE_API_URL: '',
    LOG_LEVEL: 'warn',
    LOG_UPDATE_INTERVAL_MS: String(o.intervalMs),
    MAX_FOLLOWED_JOBS: String(Math.max(o.jobs, 1)),
    SLACK_RATE_BUDGETS: o.budget === 'default' ? '' : `chat.update=${o.budget}`,
  });
  await app.next('ready');
  const following = app.next('following');
  app.send({ type: 'follow', targets });
  const followed = await following;
  console.log(`following ${followed.started} jobs after ${(followed.ms / 1000).toFixed(1)} s`);
  if (followed.failed.length > 0) console.log(`  not followed: ${followed.failed.slice(0, 5).join('; ')}`);
  await pusher.waitFor(() => pusher.subscriptions().size >= o.jobs, 'every job channel', 60_000);

  // ---- the measured window ----
  const partsPerJob = Math.ceil(o.rate * o.seconds) + 1;
  const sentAt = jobIds.map(() => new Float64Array(partsPerJob));
  const shown = new Int32Array(o.jobs).fill(-1);
  const sent = new Int32Array(o.jobs);
  const lags: number[] = [];
  const padding = 'x'.repeat(Math.max(0, o.partChars - 16));
  const logs = jobIds.map((id) => ci.state.getLog(id));

  const sendPart = (i: number, final = false) => {
    const jobId = jobIds[i] ?? 0;
    const number = sent[i] ?? 0;
    const content = `j${i} p${number} ${padding}\n`;
    logs[i]?.parts.push({ number, content, final });
    pusher.trigger(`job-${jobId}`, 'job:log', { id: jobId, _log: content, number, final });
    const times = sentAt[i];
    if (times && number < times.length) times[number] = Date.now();
    sent[i] = number + 1;
  };

  let seenCalls = slack.calls.length;
  const lastLine = /\nj(\d+) p(\d+) x*\n```$/;
  const readCalls = () => {
    const calls = slack.calls;
    for (; seenCalls < calls.length; seenCalls++) {
      const call = calls[seenCalls] as SlackCall;
      if (call.method !== 'chat.update' || !call.ok) continue;
      const match = lastLine.exec(String(call.args.text));
      if (!match) continue;
      const i = Number(match[1]);
      const n = Number(match[2]);
      const times = sentAt[i];
      if (!times) continue;
      for (let k = (shown[i] ?? -1) + 1; k <= n && k < times.length; k++)
        lags.push(call.at - (times[k] ?? 0));
      if (n > (shown[i] ?? -1)) shown[i] = n;
    }
  };
  const reader = setInterval(readCalls, 50);

  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  loopDelay.enable();
  const slots = Math.max(1, Math.round(1000 / o.rate / TICK_MS));
  app.send({ type: 'mark' });
  const worldCpu = process.cpuUsage();
  const callsBefore = slack.calls.length;
  const start = Date.now();
  let tick = 0;
  await new Promise<void>((resolve) => {
    const timer = setInterval(() => {
      const due = Math.floor((Date.now() - start) / TICK_MS);
      for (; tick <= due; tick++) {
        if (tick * TICK_MS >= o.seconds * 1000) {
          clearInterval(timer);
          resolve();
          return;
        }
        for (let i = tick % slots; i < o.jobs; i += slots) sendPart(i);
      }
    }, TICK_MS);
  });
  const streamedMs = Date.now() - start;
  await sleep(o.intervalMs + 1_000); // the last parts get their edit
  clearInterval(reader);
  readCalls();
  const totalSent = sent.reduce((a, b) => a + b, 0);
  const report = await app.report();
  const worldUsed = process.cpuUsage(worldCpu);
  loopDelay.disable();
  const windowCalls = slack.calls.slice(callsBefore);
  const windowMs = Date.now() - start;

  // ---- the end: every job finishes, every tail gets its final edit ----
  for (const jobId of jobIds) ci.state.updateJob(jobId, { state: 'passed' });
  const finishing = Date.now();
  for (let i = 0; i < o.jobs; i++) sendPart(i, true);
  const finals = new Set<string>();
  let finalSeen = slack.calls.length;
  while (finals.size < followed.started && Date.now() - finishing < 120_000) {
    await sleep(100);
    for (; finalSeen < slack.calls.length; finalSeen++) {
      const call = slack.calls[finalSeen] as SlackCall;
      if (call.method === 'chat.update' && call.ok && !String(call.args.text).includes('*Live log*')) {
        finals.add(String(call.args.ts));
      }
    }
  }
  const finalMs = Date.now() - finishing;

  // ---- results ----
  const sorted = Float64Array.from(lags).sort();
  const perJob = new Map<string, number>();
  for (const call of windowCalls) {
    if (call.method !== 'chat.update') continue;
    const ts = String(call.args.ts);
    perJob.set(ts, (perJob.get(ts) ?? 0) + 1);
  }
  const minutes = windowMs / 60_000;
  const updatesPerJob = [...perJob.values()].map((n) => n / minutes);
  const results = {
    options: { ...o, json: undefined },
    machine: {
      node: process.version,
      cpus: availableParallelism(),
      loadAverageAtStart: loadAtStart,
      loadAverageAtEnd: loadavg().map((n) => Number(n.toFixed(2))),
      memoryMb: Math.round(totalmem() / 2 ** 20),
      freeMb: Math.round(freemem() / 2 ** 20),
    },
    follow: { started: followed.started, setupSeconds: followed.ms / 1000 },
    parts: {
      sent: totalSent,
      perSecond: totalSent / (streamedMs / 1000),
      shown: lags.length,
      neverShown: totalSent - lags.length,
    },
    lagMs: {
      p50: percentile(sorted, 50),
      p95: percentile(sorted, 95),
      p99: percentile(sorted, 99),
      max: sorted.length ? (sorted[sorted.length - 1] ?? Number.NaN) : Number.NaN,
    },
    app: {
      cpuSeconds: (report.cpuUserMs + report.cpuSystemMs) / 1000,
      cpuShareOfOneCore: (report.cpuUserMs + report.cpuSystemMs) / report.wallMs,
      eventLoopDelayP99Ms: report.eventLoopDelayP99Ms,
      peak: {
        queued: report.peakQueued,
        inFlight: report.peakInFlight,
        oldestQueuedMs: report.peakOldestQueuedMs,
      },
      peakRssMb: report.peakRssMb,
      windowPeakRssMb: report.windowPeakRssMb,
      rssMbAtEnd: report.rssMb,
      heapUsedMb: report.heapUsedMb,
      heapTotalMb: report.heapTotalMb,
      externalMb: report.externalMb,
      outbox: report.outbox,
    },
    slack: {
      callsInWindow: windowCalls.length,
      callsPerJobPerMinute: windowCalls.length / o.jobs / minutes,
      updatesPerJobPerMinute: {
        mean: updatesPerJob.reduce((a, b) => a + b, 0) / Math.max(1, o.jobs),
        max: Math.max(0, ...updatesPerJob),
      },
      jobsNeverUpdated: o.jobs - perJob.size,
      rateLimited429: slack.rateLimitedCount(),
      rateLimited429ByPhase: {
        setup: limitedIn(slack.calls.slice(warmupCalls, callsBefore)),
        window: limitedIn(windowCalls),
        end: limitedIn(slack.calls.slice(callsBefore + windowCalls.length)),
      },
      setupCalls: callsBefore - warmupCalls,
    },
    end: { finalEdits: finals.size, secondsToAllFinal: finalMs / 1000 },
    world: {
      cpuShareOfOneCore: (worldUsed.user + worldUsed.system) / 1000 / (Date.now() - start),
      eventLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      eventLoopDelayMaxMs: loopDelay.max / 1e6,
    },
  };
  console.log(JSON.stringify(results, null, 2));
  if (o.json) writeFileSync(o.json, `${JSON.stringify(results, null, 2)}\n`);

  await app.stop();
  await kv.close();
  await deleteUnder(prefix);
  await Promise.all([ci.close(), slack.close(), pusher.close()]);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
