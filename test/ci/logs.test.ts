import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getJobLogText, getLog, getLogParts, streamJobLog, streamJobLogs } from '../../src/ci/logs.js';
import { FAILED_JOB, FAILED_JOB_LOG, lines, RAILS_ID, rejectsWith, type Setup, setUp } from './helpers.js';

async function readAll(stream: AsyncIterable<Uint8Array>): Promise<string> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return Buffer.concat(chunks).toString('utf8');
}

describe('CI client: logs (4.10)', () => {
  let ci: Setup;
  let liveJob: number;
  let liveLog: number;
  before(async () => {
    ci = await setUp();
    const build = ci.fake.state.addBuild(RAILS_ID, { state: 'started', jobs: [{ log: null }] });
    liveJob = build.jobIds[0] ?? 0;
    liveLog = ci.fake.state.getJob(liveJob)?.logId ?? 0;
    ci.fake.state.appendLogPart(liveJob, 'second\n', { number: 2 });
    ci.fake.state.appendLogPart(liveJob, 'first\n', { number: 1 });
    ci.take();
  });
  after(() => ci.close());

  it('GET /jobs/{id}/log as plain text', async () => {
    assert.equal(await getJobLogText(ci.as(null), FAILED_JOB), '$ export GEM=railties\n');
    const [request] = ci.take();
    assert.equal(request?.path, `/jobs/${FAILED_JOB}/log`);
    assert.equal(request?.headers.accept, 'text/plain');
  });

  it('GET /jobs/{id}/log and /jobs/{id}/logs as byte streams', async () => {
    assert.equal(await readAll(await streamJobLog(ci.as(null), FAILED_JOB)), '$ export GEM=railties\n');
    assert.equal(await readAll(await streamJobLogs(ci.as(null), liveJob)), 'first\nsecond\n');
    assert.deepEqual(lines(ci.take()), [`GET /jobs/${FAILED_JOB}/log`, `GET /jobs/${liveJob}/logs`]);
  });

  it('GET /logs/{id} as the log resource with its body', async () => {
    const log = await getLog(ci.as(null), FAILED_JOB_LOG);
    assert.equal(log.id, FAILED_JOB_LOG);
    assert.equal(log.job_id, FAILED_JOB);
    assert.equal(log.body, '$ export GEM=railties\n');
    assert.deepEqual(lines(ci.take()), [`GET /logs/${FAILED_JOB_LOG}`]);
  });

  it('GET /logs/{id} chunked: the parts that exist, in number order, with final flags', async () => {
    assert.deepEqual(await getLogParts(ci.as(null), liveLog), {
      jobId: liveJob,
      parts: [
        { number: 1, content: 'first\n', final: false },
        { number: 2, content: 'second\n', final: false },
      ],
    });
    ci.fake.state.appendLogPart(liveJob, 'done\n', { final: true });
    const { parts } = await getLogParts(ci.as(null), liveLog);
    assert.deepEqual(parts.at(-1), { number: 3, content: 'done\n', final: true });
    ci.take();
  });

  it('a job without any log: the plain text redirects to the archive, which has nothing (not_found)', async () => {
    const error = await rejectsWith(getJobLogText(ci.as(null), 4125097), 'not_found');
    assert.equal(error.data.status, 404);
    assert.deepEqual(lines(ci.take()), ['GET /jobs/4125097/log']);
    assert.deepEqual(
      ci.fake.archive.requests.map((r) => r.path),
      ['/jobs/4125097/log.txt'],
    );
  });
});
