/**
 * Runs in a worker thread for large-log.test.ts: the client side alone (CiClient, streamJobLog,
 * tailLog), in its own V8 heap, so what it holds can be measured apart from the fake server.
 */
import { getHeapStatistics } from 'node:v8';
import { parentPort, workerData } from 'node:worker_threads';
import { CiClient } from '../../src/ci/client.js';
import { tailLog } from '../../src/ci/log-text/index.js';
import { streamJobLog } from '../../src/ci/logs.js';

export interface LargeLogJob {
  url: string;
  jobId: number;
  tailLines: number;
}

export interface LargeLogResult {
  lines: string[];
  totalLines: number;
  totalBytes: number;
  chunks: number;
  /** Highest heap use seen while reading, above the heap use just before the request. */
  peakGrowthBytes: number;
}

async function run(job: LargeLogJob): Promise<LargeLogResult> {
  const client = new CiClient({
    deployments: { com: { name: 'com', apiUrl: job.url, webUrl: job.url } },
    mediaType: 'application/vnd.travis-ci.2.1+json',
    versionHeader: 'Travis-API-Version',
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 30_000,
    maxRetries: 0,
    userAgent: 'ci-slack/0.1.0',
  });
  try {
    const baseline = getHeapStatistics().used_heap_size;
    let peak = baseline;
    let chunks = 0;
    const body = await streamJobLog(client.session('com'), job.jobId);
    async function* measured(): AsyncIterable<Uint8Array> {
      for await (const chunk of body) {
        chunks += 1;
        peak = Math.max(peak, getHeapStatistics().used_heap_size);
        yield chunk;
      }
    }
    const tail = await tailLog(measured(), { lines: job.tailLines });
    return {
      lines: tail.lines,
      totalLines: tail.totalLines,
      totalBytes: tail.totalBytes,
      chunks,
      peakGrowthBytes: peak - baseline,
    };
  } finally {
    await client.close();
  }
}

run(workerData as LargeLogJob).then(
  (result) => parentPort?.postMessage({ ok: true, result }),
  (error: unknown) => parentPort?.postMessage({ ok: false, error: String(error) }),
);
