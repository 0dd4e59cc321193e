import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { Worker } from 'node:worker_threads';
import { RAILS_ID, type Setup, setUp } from './helpers.js';
import type { LargeLogJob, LargeLogResult } from './large-log-worker.js';

const TARGET_BYTES = 20 * 1024 * 1024;
const MB = 1024 * 1024;

/** About 20 MB of a real-looking log: colours, folds, timing markers and progress redraws. */
function bigLog(): { text: string; lastNumber: number } {
  const block = [
    'travis_fold:start:install\r\x1b[0K\x1b[33;1m$ bundle install\x1b[0m',
    'travis_time:start:0a1b2c\r\x1b[0K',
    'Fetching gem metadata from https://rubygems.org/\r 10%\r 55%\r100%',
    '\x1b[32mInstalling rake 13.0.6\x1b[0m',
    'travis_time:end:0a1b2c:start=1,finish=2,duration=1\r\x1b[0K',
    'travis_fold:end:install\r\x1b[0K',
  ].join('\n');
  const parts: string[] = [];
  let size = 0;
  let i = 0;
  for (; size < TARGET_BYTES; i += 1) {
    const piece = `${block}\nline ${i} of the test output ${'.'.repeat(40)}\n`;
    parts.push(piece);
    size += piece.length;
  }
  parts.push(
    '\x1b[31;1mThe command "bundle exec rake" exited with 1.\x1b[0m\nDone. Your build exited with 1.\n',
  );
  return { text: parts.join(''), lastNumber: i - 1 };
}

function runWorker(job: LargeLogJob): Promise<LargeLogResult> {
  // Node 20 does not apply the test's TypeScript loader to workers: register tsx in the worker first.
  const entry = new URL('./large-log-worker.ts', import.meta.url).href;
  const bootstrap = `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${JSON.stringify(entry)}); });`;
  const worker = new Worker(bootstrap, {
    eval: true,
    workerData: job,
    // A hard ceiling: a client that held the 20 MB log (40 MB as a JS string) would die here.
    resourceLimits: { maxOldGenerationSizeMb: 48, maxYoungGenerationSizeMb: 8 },
  });
  // Not events.once: that would also reject on the worker's 'error' event.
  const exited = new Promise<void>((resolve) => worker.once('exit', () => resolve()));
  const answered = new Promise<LargeLogResult>((resolve, reject) => {
    worker.once('error', reject);
    worker.once('message', (message: { ok: true; result: LargeLogResult } | { ok: false; error: string }) => {
      if (message.ok) resolve(message.result);
      else reject(new Error(message.error));
    });
    exited.then(() => reject(new Error('the worker ended without an answer')));
  });
  return answered.finally(() => exited);
}

describe('CI client: a 20 MB log streamed and tailed in bounded memory', () => {
  let ci: Setup;
  let jobId: number;
  let size: number;
  let lastNumber: number;
  before(async () => {
    ci = await setUp();
    const log = bigLog();
    size = Buffer.byteLength(log.text);
    lastNumber = log.lastNumber;
    jobId = ci.fake.state.addBuild(RAILS_ID, { state: 'failed', jobs: [{ log: null }] }).jobIds[0] ?? 0;
    ci.fake.state.setLog(jobId, log.text, { final: true });
  });
  after(() => ci.close());

  it('reads every byte as a stream and keeps only the cleaned tail', async () => {
    const result = await runWorker({ url: ci.fake.url, jobId, tailLines: 3 });
    assert.ok(size >= TARGET_BYTES);
    assert.equal(result.totalBytes, size);
    assert.ok(result.chunks > 100, `streamed in ${result.chunks} chunks`);
    assert.deepEqual(result.lines, [
      `line ${lastNumber} of the test output ${'.'.repeat(40)}`,
      'The command "bundle exec rake" exited with 1.',
      'Done. Your build exited with 1.',
    ]);
    assert.ok(
      result.peakGrowthBytes < 8 * MB,
      `heap grew by ${(result.peakGrowthBytes / MB).toFixed(1)} MB while reading ${(size / MB).toFixed(0)} MB`,
    );
  });
});
