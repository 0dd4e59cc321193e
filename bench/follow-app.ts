/**
 * The measured process of bench/follow.ts: the whole app as src/main.ts builds it (services, the
 * Slack app with its HTTP front thread, the background work), configured through the environment
 * like the real app, with its follows started the way `/ci logs --follow` starts them. Started by
 * the benchmark; not run by hand.
 */
import { writeFileSync } from 'node:fs';
import { Session } from 'node:inspector';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { getHeapSpaceStatistics, writeHeapSnapshot } from 'node:v8';
import { startBackground } from '../src/background.js';
import { loadConfig } from '../src/config.js';
import { createLogger } from '../src/log.js';
import { createServices } from '../src/services.js';
import { startSlackApp } from '../src/slack/app.js';
import { createRedis, RedisKv } from '../src/store/redis-kv.js';
import type { AppReport, FromApp, ToApp } from './follow-protocol.js';

const send = (message: FromApp) => process.send?.(message);

async function main(): Promise<void> {
  const prefix = process.env.BENCH_REDIS_PREFIX;
  if (!prefix || !process.send) throw new Error('start this through bench/follow.ts');
  const config = loadConfig(process.env);
  const logger = createLogger(config.logLevel);
  const redisUrl = config.redisUrl ?? 'redis://127.0.0.1:6379';
  const kv = new RedisKv(createRedis(redisUrl, logger), { prefix });
  const services = createServices({
    config,
    logger,
    kv,
    storeKind: 'redis',
    userAgent: 'ci-slack-bench/0.0.0',
  });
  const running = await startSlackApp(services);
  const background = await startBackground(services);
  await services.accounts.link({
    teamId: 'T0TEST',
    userId: 'U0USER',
    deployment: 'com',
    ciLogin: 'rkh',
    ciUserId: 267,
    token: 'token-rkh',
  });

  let markCpu = process.cpuUsage();
  let markAt = performance.now();
  const loopDelay = monitorEventLoopDelay({ resolution: 10 });
  const peaks = { queued: 0, inFlight: 0, oldestQueuedMs: 0, rss: 0 };
  setInterval(() => {
    peaks.rss = Math.max(peaks.rss, process.memoryUsage.rss());
    const stats = services.outbox.stats();
    peaks.queued = Math.max(peaks.queued, stats.queued);
    peaks.inFlight = Math.max(peaks.inFlight, stats.inFlight);
    peaks.oldestQueuedMs = Math.max(peaks.oldestQueuedMs, stats.oldestQueuedMs);
  }, 250).unref();
  const report = (): AppReport => {
    const cpu = process.cpuUsage(markCpu);
    const memory = process.memoryUsage();
    const stats = services.outbox.stats();
    return {
      cpuUserMs: cpu.user / 1000,
      cpuSystemMs: cpu.system / 1000,
      wallMs: performance.now() - markAt,
      peakRssMb: process.resourceUsage().maxRSS / 1024,
      windowPeakRssMb: peaks.rss / 2 ** 20,
      rssMb: memory.rss / 2 ** 20,
      heapUsedMb: memory.heapUsed / 2 ** 20,
      heapTotalMb: memory.heapTotal / 2 ** 20,
      externalMb: memory.external / 2 ** 20,
      followed: services.follower.size,
      eventLoopDelayP99Ms: loopDelay.percentile(99) / 1e6,
      peakQueued: peaks.queued,
      peakInFlight: peaks.inFlight,
      peakOldestQueuedMs: peaks.oldestQueuedMs,
      outbox: {
        sent: stats.sent,
        rateLimited: stats.rateLimited,
        mergedEdits: stats.mergedEdits,
        oldestQueuedMs: stats.oldestQueuedMs,
      },
    };
  };

  process.on('message', async (message: ToApp) => {
    switch (message.type) {
      case 'follow': {
        const started = performance.now();
        const failed: string[] = [];
        let count = 0;
        await Promise.all(
          message.targets.map(async ({ jobId, channelId }) => {
            try {
              const outcome = await services.follower.follow({
                deployment: 'com',
                jobId,
                actor: { teamId: 'T0TEST', userId: 'U0USER' },
                channelId,
              });
              if (outcome.kind === 'started') count += 1;
              else failed.push(`${jobId}: ${outcome.kind}`);
            } catch (error) {
              failed.push(`${jobId}: ${error instanceof Error ? error.message : String(error)}`);
            }
          }),
        );
        send({ type: 'following', started: count, failed, ms: performance.now() - started });
        return;
      }
      case 'mark':
        if (sampling) await startAllocationSampling(sampling === 'all-allocations');
        markCpu = process.cpuUsage();
        markAt = performance.now();
        loopDelay.reset();
        loopDelay.enable();
        Object.assign(peaks, { queued: 0, inFlight: 0, oldestQueuedMs: 0, rss: 0 });
        return;
      case 'report':
        send({ type: 'report', report: report() });
        if (sampling) await stopAllocationSampling();
        else if (process.env.BENCH_DIAGNOSE) diagnose();
        return;
      case 'stop':
        await running.stop();
        await services.follower.stop({ handOver: false });
        await background.stop();
        services.outbox.close();
        await services.realtime.close();
        await services.ci.close();
        await kv.close();
        process.exit(0);
    }
  });
  send({ type: 'ready' });
}

const inspector = new Session();
const post = (method: string, params?: object) =>
  new Promise<unknown>((resolve, reject) =>
    inspector.post(method, params ?? {}, (error, result) => (error ? reject(error) : resolve(result))),
  );

const diagnosis = process.env.BENCH_DIAGNOSE;
const sampling = diagnosis === 'allocations' || diagnosis === 'all-allocations' ? diagnosis : undefined;

/**
 * BENCH_DIAGNOSE=allocations: where the objects that outlive young-generation collections come
 * from; `all-allocations`: every allocation, short-lived ones included.
 */
async function startAllocationSampling(all: boolean): Promise<void> {
  inspector.connect();
  await post('HeapProfiler.enable');
  await post('HeapProfiler.startSampling', {
    samplingInterval: 16_384,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: all,
  });
}

async function stopAllocationSampling(): Promise<void> {
  const { profile } = (await post('HeapProfiler.stopSampling')) as { profile: unknown };
  const path = `allocations-${process.pid}.heapprofile`;
  writeFileSync(path, JSON.stringify(profile));
  console.error(`allocation profile: ${path}`);
}

/** BENCH_DIAGNOSE=1 (with --expose-gc): what stays on the heap after a full collection. */
function diagnose(): void {
  const spaces = (label: string) =>
    console.error(
      `${label}: ${getHeapSpaceStatistics()
        .map(
          (s) =>
            `${s.space_name} ${(s.space_used_size / 2 ** 20).toFixed(1)}/${(s.space_size / 2 ** 20).toFixed(1)}`,
        )
        .join(', ')} (MB used/committed)`,
    );
  spaces('heap before gc');
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const memory = process.memoryUsage();
  console.error(
    `after gc: rss ${(memory.rss / 2 ** 20).toFixed(1)} MB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(1)} MB of ${(memory.heapTotal / 2 ** 20).toFixed(1)} MB`,
  );
  if (process.env.BENCH_DIAGNOSE === 'snapshot') console.error(`heap snapshot: ${writeHeapSnapshot()}`);
}

main().catch((error: unknown) => {
  console.error('bench app failed:', error);
  process.exit(1);
});
