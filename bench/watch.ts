/**
 * Issue 4 §9 benchmark of the build watcher: two processes watching 2,000 repositories while builds
 * come and move at a steady rate. Three scenarios: realtime with polling (the normal case), polling
 * alone, and realtime at ten times the build rate. Measures CI requests per minute (by route), the
 * delay from a change in the fake CI to the update at a sink (p50/p95/p99/max), and duplicates.
 *
 *   npx tsx bench/watch.ts                    # 2 processes, 2,000 repositories, 60 s per scenario (~8 min)
 *   npx tsx bench/watch.ts --seconds 15 --repos 200 --poll-ms 3000 --lease-ttl-ms 3000   # short (~3 min)
 *   npx tsx bench/watch.ts --scenarios polling
 *
 * Writes bench/watch.md (method, machine, numbers) and bench/results/watch-<time>.json (not
 * committed); `npm run bench` assembles BENCHMARKS.md from the .md.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { availableParallelism, cpus, freemem, totalmem } from 'node:os';
import { parseArgs } from 'node:util';
import { Redis } from 'ioredis';
import { REDIS_URL } from '../test/store/harness.js';
import { runScenario, type ScenarioResult, type ScenarioSettings } from './watch-scenario.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '60' },
    repos: { type: 'string', default: '2000' },
    processes: { type: 'string', default: '2' },
    'builds-per-min': { type: 'string', default: '60' },
    'poll-ms': { type: 'string', default: '15000' },
    'lease-ttl-ms': { type: 'string', default: '30000' },
    creators: { type: 'string', default: '50' },
    scenarios: { type: 'string', default: 'realtime,polling,heavy' },
  },
});
const base = {
  repos: Number(values.repos),
  processes: Number(values.processes),
  seconds: Number(values.seconds),
  buildsPerMin: Number(values['builds-per-min']),
  pollMs: Number(values['poll-ms']),
  leaseTtlMs: Number(values['lease-ttl-ms']),
  creators: Number(values.creators),
};
const SCENARIOS: Record<string, ScenarioSettings> = {
  realtime: { ...base, name: 'realtime + polling', realtime: true },
  polling: { ...base, name: 'polling only', realtime: false },
  heavy: {
    ...base,
    name: 'realtime + polling, 10× builds',
    realtime: true,
    buildsPerMin: base.buildsPerMin * 10,
  },
};

const n = (value: number) => value.toLocaleString('en-US');
const ms = (value: number) => (value >= 1_000 ? `${(value / 1_000).toFixed(1)} s` : `${value} ms`);

const results: ScenarioResult[] = [];
for (const key of String(values.scenarios).split(',')) {
  const settings = SCENARIOS[key.trim()];
  if (!settings) throw new Error(`unknown scenario ${key}; choose from ${Object.keys(SCENARIOS).join(', ')}`);
  console.error(`=== ${settings.name}`);
  const result = await runScenario(settings);
  console.log(JSON.stringify(result));
  results.push(result);
}

await mkdir(new URL('./results/', import.meta.url), { recursive: true });
await writeFile(
  new URL(`./results/watch-${Date.now()}.json`, import.meta.url),
  `${JSON.stringify(results, null, 2)}\n`,
);
await writeFile(new URL('./watch.md', import.meta.url), await report(results));
console.error('bench/watch.md written');

async function redisVersion(): Promise<string> {
  const redis = new Redis(REDIS_URL);
  try {
    return /redis_version:(\S+)/.exec(await redis.info('server'))?.[1] ?? 'unknown';
  } finally {
    await redis.quit();
  }
}

async function report(runs: ScenarioResult[]): Promise<string> {
  const machine = `${availableParallelism()} CPUs (\`nproc\`; ${cpus()[0]?.model ?? 'unknown model'}), ${n(
    Math.round(totalmem() / 2 ** 20),
  )} MB RAM, ${n(Math.round(freemem() / 2 ** 20))} MB free at the end (\`free -m\`), Node ${process.version}, Redis ${await redisVersion()} on localhost`;
  const rows = runs.map((r) => {
    const routes = Object.entries(r.ciRequestsPerMinuteByRoute)
      .sort((a, b) => b[1] - a[1])
      .map(([route, count]) => `${n(count)} \`${route}\``)
      .join(', ');
    return `| ${r.settings.name} (${r.settings.buildsPerMin} builds/min) | ${r.buildsStarted} / ${n(r.changes)} | ${n(
      r.updates.poll + r.updates.realtime,
    )} (${n(r.updates.realtime)} realtime, ${n(r.updates.poll)} poll) | ${ms(r.delayMs.p50)} / **${ms(r.delayMs.p95)}** / ${ms(
      r.delayMs.p99,
    )} / ${ms(r.delayMs.max)} | **${r.duplicates}** | ${r.undelivered} | **${n(r.ciRequestsPerMinute)}**: ${routes} |`;
  });
  const workerLines = runs.map((r) => {
    const each = r.workers
      .map(
        (w, i) =>
          `process ${i + 1}: CPU ${(w.cpuMs / 1000).toFixed(1)} s, peak RSS ${w.peakRssMb} MB, requests ${Object.entries(
            w.requestsByPurpose,
          )
            .filter(([, count]) => count > 0)
            .map(([purpose, count]) => `${purpose} ${n(count)}`)
            .join(', ')}`,
      )
      .join('; ');
    return `- ${r.settings.name}: leases split ${r.heldAfterWarmup.join(' / ')} in ${ms(r.splitMs)}; ${r.quietHistoryUpdates} updates during warm-up; ${each}.`;
  });
  const first = runs[0]?.settings ?? { ...base, realtime: true, name: '' };
  return `## Build watcher: ${first.processes} processes, ${n(first.repos)} repositories (\`bench/watch.ts\`)

Issue 4 §9: CI requests per minute, notification delay at p95, duplicates (target 0).
Run with \`npx tsx bench/watch.ts\` (\`--seconds\`, \`--repos\`, \`--processes\`, \`--builds-per-min\`,
\`--poll-ms\`, \`--lease-ttl-ms\`, \`--creators\`, \`--scenarios realtime,polling,heavy\`).

**Method.** The parent process runs the fake CI, the fake Pusher server (every realtime message of
the fake CI is forwarded to it) and a fake Slack; the watchers are ${first.processes} real child processes
(\`bench/watch-worker.ts\`), each with its own services (Redis connection, CI client, realtime hub) on
one Redis prefix, as replicas run. World: ${n(first.repos)} repositories (half private), ${first.creators} CI users each
admin of an equal part of them and linked to a Slack user, one channel subscription per repository
by its admin, and one build per repository that finished an hour earlier (history that must stay
quiet). Warm-up: start the processes together, wait until the leases are split evenly, then one poll
interval more. Load, for ${first.seconds} s: builds started at a steady rate on random repositories (60 a minute
over 2,000 repositories is one build per repository every half hour: a busy organisation in working
hours). Each build has two jobs and lives 15–45 s: created → job 1 and the build started (3–8 s) →
job 2 started → job 1 passed (10–30 s) → job 2 passed or failed (20 %) and the build finished. The
parent records when each build state happened; each sink reports each update with its arrival time
over IPC. A state's delay is the time until an update showing it, or a later state of the same build,
reached a sink (a poll may fold several states into one update). Duplicates: updates showing the
same build state twice, across all processes. CI requests: everything the fake CI received during
the load window, per minute. Settings: NOTIFY_POLL_INTERVAL_MS ${n(first.pollMs)}, LEASE_TTL_MS ${n(first.leaseTtlMs)}
(the production defaults are 15,000 and 30,000), 16 polls at once per process. The delay is measured to the \`BuildSink\`, where the
notifier takes over: what it then sends to Slack goes through the outbox's pacing, which the
follow benchmark and the end-to-end notification test measure.

**Machine.** ${machine}. The fakes, Redis and all watcher processes share these CPUs.

| Scenario | Builds / states | Updates | Delay p50 / p95 / p99 / max | Duplicates | Undelivered | CI requests / min |
| --- | --- | --- | --- | --- | --- | --- |
${rows.join('\n')}

${workerLines.join('\n')}

Peak RSS includes about 145 MB that a process running under tsx with the app's services loaded takes
before watching anything.

**Reading the numbers.** Polling is the cost: every repository is listed once per interval whatever
happens (${n(first.repos)} repositories every ${first.pollMs / 1000} s = ${n(Math.round((first.repos * 60_000) / first.pollMs))} list requests a minute), because the issue
asks for polling as a safety net. The rest is one \`GET /builds/{id}\` per new build (realtime announces
\`build:created\` before the watcher knows the build's jobs) and one for each \`_no_full_payload\` stub.
The fake's list answer carries jobs; against a service whose list does not, each unfinished build adds
one \`GET /builds/{id}\` per poll. A longer \`NOTIFY_POLL_INTERVAL_MS\` divides the polling cost. With
realtime, changes reach the sink within milliseconds and polls find nothing new; polling alone delivers
within one interval.
`;
}
