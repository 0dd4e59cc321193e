/**
 * Issue 3 benchmark: acknowledgement latency of signed slash commands at 50, 200 and 500 per
 * second (20 s each) against this app and, in the same run, against a bare Bolt app that only
 * acknowledges; then the `/ci builds` round trip (command in → message out at the fake Slack)
 * compared with the fake CI service's own answer time for the same requests.
 *
 *   npx tsx bench/ack.ts [--seconds 20] [--rates 50,200,500] [--roundtrips 200] [--repeat 3]
 *
 * Writes bench/ack.md (method, machine, numbers); `npm run bench` assembles BENCHMARKS.md.
 */
import { randomUUID } from 'node:crypto';
import { writeFile } from 'node:fs/promises';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import { request } from 'undici';
import { startFakeCi } from '../test/fakes/ci/index.js';
import { FAKE_IDENTITY, startFakeSlack } from '../test/fakes/slack/index.js';
import { postToApp, slashCommandBody } from '../test/helpers/slack-requests.js';
import { deleteUnder } from '../test/store/harness.js';
import { startChild, stopChild } from './lib/child.js';
import { compileEntry } from './lib/compile.js';
import { machine, percentile, round } from './lib/stats.js';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '20' },
    rates: { type: 'string', default: '50,200,500' },
    roundtrips: { type: 'string', default: '200' },
    repeat: { type: 'string', default: '3' },
  },
});
const seconds = Number(values.seconds);
const rates = String(values.rates).split(',').map(Number);
const roundtrips = Number(values.roundtrips);
const repeat = Number(values.repeat);
const SECRET = 'bench-signing-secret';
const USER = 'U0BENCH';
const COMMAND = 'builds rails/rails';

const ci = await startFakeCi();
const slack = await startFakeSlack();
const prefix = `bench:ack:${randomUUID()}:`;
const env = {
  SLACK_BOT_TOKEN: FAKE_IDENTITY.botToken,
  SLACK_SIGNING_SECRET: SECRET,
  SLACK_API_URL: slack.apiUrl,
  SLACK_APP_TOKEN: '',
  PORT: '0',
  REDIS_URL: 'redis://127.0.0.1:6379',
  TOKEN_ENCRYPTION_KEY: Buffer.alloc(32, 5).toString('base64'),
  CI_COM_API_URL: ci.url,
  CI_ORG_API_URL: '',
  LOG_LEVEL: 'error',
  BENCH_PREFIX: prefix,
  BENCH_USER: USER,
};
// BENCH_PROFILE_DIR=/tmp/x writes a CPU profile of the app process there (for finding hot spots).
const profile = process.env.BENCH_PROFILE_DIR
  ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROFILE_DIR}`]
  : [];
// Both apps run compiled, as `npm start` runs the app.
const ours = await startChild<{ port: number }>(
  compileEntry(new URL('./lib/app-process.ts', import.meta.url)),
  env,
  profile,
);
const bare = await startChild<{ port: number }>(
  compileEntry(new URL('./lib/bare-process.ts', import.meta.url)),
  env,
);
const urlOf = (port: number) => `http://127.0.0.1:${port}/slack/events`;

interface LoadResult {
  latencies: number[];
  failures: number;
  wallMs: number;
}

function load(url: string, rate: number): Promise<LoadResult> {
  const bodies = Array.from({ length: rate * seconds }, () =>
    slashCommandBody({ text: COMMAND, userId: USER, responseUrl: slack.responseUrl() }),
  );
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./lib/load-worker.mjs', import.meta.url), {
      workerData: { url, secret: SECRET, rate, seconds, bodies },
    });
    worker.once('message', resolve);
    worker.once('error', reject);
  });
}

const summary = (r: LoadResult) => ({
  p50: round(percentile(r.latencies, 50)),
  p99: round(percentile(r.latencies, 99)),
  max: round(Math.max(...r.latencies)),
  failures: r.failures,
  sent: r.latencies.length + r.failures,
});

// Warm-up (JIT, connection pools, Redis) so the first measured requests are not the first ever.
for (const port of [bare.ready.port, ours.ready.port]) {
  for (let i = 0; i < 100; i++) {
    await postToApp(
      urlOf(port),
      slashCommandBody({ text: COMMAND, userId: USER, responseUrl: slack.responseUrl() }),
      {
        signingSecret: SECRET,
      },
    );
  }
}
await new Promise((resolve) => setTimeout(resolve, 500));

/**
 * The fakes record every request they get (tens of thousands here); nothing measured needs the
 * old ones, and searching and keeping them would slow this process, which times the round trip.
 */
function forgetRecords(): void {
  slack.responses.length = 0;
  ci.requests.length = 0;
}

/**
 * The app may still be answering its last load's commands (at 500/s it falls behind): wait until
 * its answers stop arriving, so that work does not weigh on the next run or the round trip.
 */
async function settle(): Promise<void> {
  for (let seen = -1; seen !== slack.responses.length; ) {
    seen = slack.responses.length;
    await new Promise((resolve) => setTimeout(resolve, 1_000));
  }
  forgetRecords();
}

const pooled = (results: LoadResult[]): LoadResult => ({
  latencies: results.flatMap((r) => r.latencies),
  failures: results.reduce((n, r) => n + r.failures, 0),
  wallMs: results.reduce((n, r) => n + r.wallMs, 0),
});
const rows: string[] = [];
for (const rate of rates) {
  // Alternate which app goes first, so a slow patch of the shared machine hits both alike.
  const bareRuns: LoadResult[] = [];
  const appRuns: LoadResult[] = [];
  for (let r = 0; r < repeat; r++) {
    const order = r % 2 === 0 ? (['bare', 'app'] as const) : (['app', 'bare'] as const);
    for (const which of order) {
      const port = which === 'bare' ? bare.ready.port : ours.ready.port;
      (which === 'bare' ? bareRuns : appRuns).push(await load(urlOf(port), rate));
      await settle();
    }
    const [b, a] = [summary(bareRuns[r] as LoadResult), summary(appRuns[r] as LoadResult)];
    console.log(JSON.stringify({ rate, run: r + 1, baseline: b, app: a, ratio: round(a.p99 / b.p99, 2) }));
  }
  const baseline = summary(pooled(bareRuns));
  const app = summary(pooled(appRuns));
  const ratios = bareRuns.map((b, i) => round(summary(appRuns[i] as LoadResult).p99 / summary(b).p99, 2));
  rows.push(
    `| ${rate}/s | ${baseline.p50} | ${baseline.p99} | ${app.p50} | ${app.p99} | ${app.max} | **${round(app.p99 / baseline.p99, 2)}** | ${ratios.join(' · ')} | ${app.failures + baseline.failures} |`,
  );
}

// Round trip, one command at a time: command in → answer at the fake Slack, minus the time the
// fake CI itself takes for the same requests (replayed directly from here).
await settle();
const overheads: number[] = [];
const totals: number[] = [];
for (let i = 0; i < roundtrips; i++) {
  const responseUrl = slack.responseUrl();
  const before = ci.requests.length;
  const started = performance.now();
  await postToApp(urlOf(ours.ready.port), slashCommandBody({ text: COMMAND, userId: USER, responseUrl }), {
    signingSecret: SECRET,
  });
  await slack.waitForResponse((r) => r.url === responseUrl, 10_000);
  const total = performance.now() - started;
  let ciMs = 0;
  for (const r of ci.requests.slice(before)) {
    const t = performance.now();
    const res = await request(`${ci.url}${r.path}?${r.query}`, {
      method: r.method as 'GET',
      headers: r.headers as Record<string, string>,
    });
    await res.body.dump();
    ciMs += performance.now() - t;
  }
  totals.push(total);
  overheads.push(total - ciMs);
}
const rt = {
  p50: round(percentile(totals, 50)),
  overheadP50: round(percentile(overheads, 50)),
  overheadP99: round(percentile(overheads, 99)),
};
console.log(JSON.stringify({ roundtrip: rt }));

await stopChild(ours.child);
await stopChild(bare.child);
await Promise.all([ci.close(), slack.close()]);
await deleteUnder(prefix);

const report = `## Slash command acknowledgement (issue 3)

**Method.** \`npx tsx bench/ack.ts --seconds ${seconds} --rates ${rates.join(',')} --roundtrips ${roundtrips} --repeat ${repeat}\`.
The app (HTTP mode, signature checks on, Redis, the seeded fake CI service and fake Slack Web API)
and a bare Bolt app that only acknowledges \`/ci\` each run in their own process; a worker thread
sends signed \`/ci ${COMMAND}\` requests open-loop at a fixed rate for ${seconds} s per rate and
times each HTTP answer (the acknowledgement). Each rate is run ${repeat} times, alternating which
app goes first and letting the app finish its work before the next run; the table gives p50, p99 and max over all the runs' acks together (the p99 ratio
in bold) and, beside it, the ratio of each run on its own. The app does its real work after the ack (Redis,
two CI requests, the answer through response_url) in the same process, so its load is included.
Then, once the app has answered the last load, ${roundtrips} commands are sent one at a time and
timed until the answer reaches the fake Slack; the fake CI's own time for the same requests
(replayed directly) is subtracted.

**Machine.** ${await machine()}; Redis 7 on the same host; load generator, fakes and both apps share the cores.

| rate | bare p50 (ms) | bare p99 (ms) | app p50 (ms) | app p99 (ms) | app max (ms) | p99 ratio | ratio per run | failed |
|---|---|---|---|---|---|---|---|---|
${rows.join('\n')}

Targets: p99 within 1.2 × the bare app's; no ack slower than 3 s at 200/s.

**How the app keeps up.** Each command costs the app about 2 ms of CPU after its ack (Bolt,
Redis, two CI answers checked with zod, the reply). On the main thread, that work delayed the acks
queued behind it: p99 ratios 0.91 / 2.07 / 5.95 at 50 / 200 / 500 per second. Acks now come from
a thread of their own (\`src/slack/front/\`), which only verifies the signature and answers:
0.70 / 1.36 / 1.94. On two cores shared with the load generator, the fakes and Redis, the front
thread still waited for a core behind the app's work, so the app's thread lowers its own
scheduling priority (nice 5, per thread on Linux) once the front runs. A p99 of a few milliseconds
is at the mercy of everything else on a shared 2-core machine: single runs land far from each
other (the ratio per run, from about 0.2 to 1.7 on one day), which is why each rate is run
several times and the acks of all runs are pooled.
Before each run waited for the app to finish the previous one's work, the backlog of a 500/s run
spilled into the next run: the same pooled ratios then read 0.75 / 1.55 / 1.31.

\`/ci builds\` round trip: p50 ${rt.p50} ms in total; over the fake CI's own answer time it adds
p50 ${rt.overheadP50} ms (p99 ${rt.overheadP99} ms). Target: at most 10 ms at p50.

The app's thread is three quarters idle during the round trip: it waits on three Redis reads, two
CI requests and the reply to response_url, each served by a process sharing the same two cores.
The fakes record every request; before this benchmark dropped those records between runs, the
tens of thousands kept from the load phases slowed the measuring process and the round trip read
10.8–11.3 ms.
`;
await writeFile(new URL('./ack.md', import.meta.url), report);
console.log(report);
