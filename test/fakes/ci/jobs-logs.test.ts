import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { request } from 'undici';
import { fixture } from './fixtures.js';
import { type FakeCi, startFakeCi } from './index.js';
import { call, field, MEDIA_TYPE } from './test-helpers.js';

const CHUNKED = `${MEDIA_TYPE}; chunked=true`;

describe('fake CI: jobs', () => {
  let ci: FakeCi;
  before(async () => {
    ci = await startFakeCi();
  });
  after(() => ci.close());

  it('answers the job fixtures', async () => {
    assert.deepEqual(
      (await call(ci.url, '/jobs/4125096')).json,
      fixture('travisrb_v2_job_4125096_failed.json'),
    );
    assert.deepEqual(
      (await call(ci.url, '/jobs/4125097')).json,
      fixture('travisrb_v2_job_4125097_passed.json'),
    );
    assert.equal((await call(ci.url, '/jobs/4125095')).status, 404, 'a build id is not a job id');
  });

  it('lists jobs by ids, state or queue as {jobs, commits}', async () => {
    const byIds = await call(ci.url, '/jobs?ids[]=4125096&ids[]=4125097');
    assert.deepEqual(Object.keys(byIds.json as object), ['jobs', 'commits']);
    assert.deepEqual(
      (field(byIds.json, 'jobs') as Array<{ id: number }>).map((j) => j.id),
      [4125096, 4125097],
    );
    assert.equal(field(byIds.json, 'commits', 0, 'id'), 1201631);
    const passed = await call(ci.url, '/jobs?state=passed');
    assert.ok((field(passed.json, 'jobs') as Array<{ state: string }>).every((j) => j.state === 'passed'));
    const queue = await call(ci.url, '/jobs?queue=builds.rails');
    assert.equal((field(queue.json, 'jobs') as unknown[]).length, 12);
  });

  it('wants exactly one of ids, state, queue', async () => {
    for (const query of ['', '?ids=4125096&state=passed', '?state=passed&queue=builds.rails']) {
      const response = await call(ci.url, `/jobs${query}`);
      assert.equal(response.status, 400, query);
      assert.equal(field(response.json, 'error_type'), 'invalid_parameters');
    }
  });

  it('returns at most 250 jobs for a state filter', async () => {
    ci.state.addBuild('rails/rails', { state: 'queued', jobs: 260 });
    const response = await call(ci.url, '/jobs?state=queued');
    assert.equal((field(response.json, 'jobs') as unknown[]).length, 250);
  });
});

describe('fake CI: logs', () => {
  let ci: FakeCi;
  before(async () => {
    ci = await startFakeCi();
  });
  after(() => ci.close());

  it('serves a log as text, as a resource and in parts', async () => {
    const log = fixture('travisrb_v2_log_3168318.json') as { log: Record<string, unknown> };
    assert.deepEqual((await call(ci.url, '/logs/3168318')).json, log);
    assert.deepEqual((await call(ci.url, '/jobs/4125096/log')).json, log);
    const chunked = await call(ci.url, '/logs/3168318', { accept: CHUNKED });
    assert.deepEqual(chunked.json, {
      log: {
        id: 3168318,
        job_id: 4125096,
        type: 'Log',
        parts: [{ number: 0, content: '$ export GEM=railties\n', final: true }],
      },
    });
    const plain = await call(ci.url, '/jobs/4125096/logs', { accept: 'text/plain' });
    assert.deepEqual([plain.status, plain.text], [200, '$ export GEM=railties\n']);
  });

  it('assembles live parts by number, however they arrived', async () => {
    const build = ci.state.addBuild('rails/rails', { state: 'started' });
    const jobId = build.jobIds[0] ?? 0;
    ci.state.appendLogPart(jobId, 'one\n');
    ci.state.appendLogPart(jobId, 'three\n', { number: 2, final: true });
    ci.state.appendLogPart(jobId, 'two\n', { number: 1 });
    const text = await call(ci.url, `/jobs/${jobId}/log`, { accept: 'text/plain' });
    assert.equal(text.text, 'one\ntwo\nthree\n');
    const parts = await call(ci.url, `/jobs/${jobId}/log`, { accept: CHUNKED });
    assert.deepEqual(
      (field(parts.json, 'log', 'parts') as Array<{ number: number; final: boolean }>).map((p) => [
        p.number,
        p.final,
      ]),
      [
        [0, false],
        [1, false],
        [2, true],
      ],
    );
  });

  it('answers the empty-log fixture shape for a job without log, and redirects its text', async () => {
    const empty = await call(ci.url, '/jobs/4125097/log');
    const expected = fixture('travisapi_v2_empty_log.json') as { log: Record<string, unknown> };
    assert.deepEqual(empty.json, { log: { ...expected.log, job_id: 4125097 } });
    const text = await call(ci.url, '/jobs/4125097/log', { accept: 'text/plain' });
    assert.equal(text.status, 307);
    const missing = await request(String(text.headers.location));
    assert.equal(missing.statusCode, 404);
    await missing.body.dump();
  });

  it('redirects plain-text reads of an archived log to the archive, which refuses Authorization', async () => {
    ci.state.archiveLog(4125096);
    for (const path of ['/jobs/4125096/log', '/jobs/4125096/logs', '/logs/3168318']) {
      const response = await call(ci.url, path, { accept: 'text/plain', token: 'token-rkh' });
      assert.equal(response.status, 307, path);
      assert.equal(response.headers.location, `${ci.archive.url}/jobs/4125096/log.txt`);
    }
    const location = `${ci.archive.url}/jobs/4125096/log.txt`;
    const withToken = await request(location, { headers: { authorization: 'token token-rkh' } });
    assert.equal(withToken.statusCode, 403);
    assert.match(await withToken.body.text(), /AccessDenied/);
    const plain = await request(location);
    assert.equal(plain.statusCode, 200);
    assert.equal(await plain.body.text(), '$ export GEM=railties\n');
    assert.equal(ci.archive.requests.at(-1)?.path, '/jobs/4125096/log.txt');
    const chunked = await call(ci.url, '/logs/3168318', { accept: CHUNKED });
    assert.deepEqual(field(chunked.json, 'log', 'parts'), [
      { number: 0, content: '$ export GEM=railties\n', final: true },
    ]);
  });
});
