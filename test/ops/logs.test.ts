import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getJobLogText } from '../../src/ci/logs.js';
import { tailJobLog } from '../../src/ops/logs.js';
import { type OpsWorld, startOpsWorld } from '../helpers/ops-world.js';

/** About 20 MB of log: numbered lines with colour codes, a fold marker and `\r` progress. */
function bigLog(lines: number): string {
  const parts = ['travis_fold:start:install\r\x1b[0K$ bundle install\n'];
  for (let i = 1; i <= lines; i++) {
    parts.push(
      `\x1b[32mline ${i}\x1b[0m ${'x'.repeat(60)} 10%\r\x1b[32mline ${i}\x1b[0m ${'x'.repeat(60)} done\n`,
    );
  }
  return parts.join('');
}

describe('the end of a job log', () => {
  let w: OpsWorld;
  before(async () => {
    w = await startOpsWorld();
  });
  after(() => w.close());

  it('streams a 20 MB log and keeps only its last lines, cleaned', async () => {
    const build = w.ci.state.addBuild(891, { state: 'failed', jobs: [{ log: bigLog(140_000) }] });
    const jobId = build.jobIds[0] ?? 0;
    // The client refuses to read more than 1 MB whole here, so only a stream can succeed.
    await assert.rejects(getJobLogText(w.as('rkh'), jobId));
    const tail = await tailJobLog(w.as('rkh'), jobId, 3);
    assert.ok(tail.totalBytes > 20_000_000, `only ${tail.totalBytes} bytes`);
    assert.deepEqual(tail.lines, [
      `line 139998 ${'x'.repeat(60)} done`,
      `line 139999 ${'x'.repeat(60)} done`,
      `line 140000 ${'x'.repeat(60)} done`,
    ]);
    assert.equal(tail.totalLines, 140_001);
    assert.equal(tail.truncated, true);
    assert.equal(tail.empty, false);
  });

  it('follows the redirect of an archived log without sending the token there', async () => {
    const build = w.ci.state.addBuild(891, { state: 'passed', jobs: [{ log: 'one\ntwo\nthree\n' }] });
    const jobId = build.jobIds[0] ?? 0;
    w.ci.state.archiveLog(jobId);
    const tail = await tailJobLog(w.as('rkh'), jobId, 2);
    assert.deepEqual(tail.lines, ['two', 'three']);
    const fetched = w.ci.archive.requests.filter((r) => r.path === `/jobs/${jobId}/log.txt`);
    assert.equal(fetched.length, 1);
    assert.equal(fetched[0]?.headers.authorization, undefined);
  });

  it('says when a log is empty', async () => {
    const build = w.ci.state.addBuild(891, { state: 'started', jobs: [{ log: '' }] });
    const tail = await tailJobLog(w.as('rkh'), build.jobIds[0] ?? 0);
    assert.equal(tail.empty, true);
    assert.deepEqual(tail.lines, []);
  });
});
