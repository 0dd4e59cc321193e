import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { lintConfig } from '../../src/ci/lint.js';
import { tailLog } from '../../src/ci/log-text/index.js';
import { getJobLogText, streamJobLog, streamJobLogs } from '../../src/ci/logs.js';
import { FAILED_JOB, lines, RAILS_ID, RKH_TOKEN, rejectsWith, type Setup, setUp } from './helpers.js';

const LOG_PATH = `/jobs/${FAILED_JOB}/log`;
const LINT_BODY = JSON.stringify({ lint: { warnings: [{ key: ['x'], message: 'moved' }] } });

describe('CI client: redirects', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp({ client: { maxRetries: 0 } });
  });
  afterEach(() => {
    ci.fake.clearFaults();
    ci.take();
  });
  after(() => ci.close());

  /** `from` answers `status` with `location`, once. */
  const redirect = (from: string, location: string, status = 302, method = 'GET') =>
    ci.fake.fault({ method, path: from }, { status, headers: { location }, times: 1 });

  it('follows an archived log to object storage without the Authorization header', async () => {
    const build = ci.fake.state.addBuild(RAILS_ID, { state: 'passed', jobs: [{ log: 'archived text\n' }] });
    const job = build.jobIds[0] ?? 0;
    ci.fake.state.archiveLog(job);
    ci.take();
    assert.equal(await getJobLogText(ci.as(), job), 'archived text\n');
    const tail = await tailLog(await streamJobLog(ci.as(), job), { lines: 5 });
    assert.deepEqual(tail.lines, ['archived text']);
    const viaLogs = await tailLog(await streamJobLogs(ci.as(), job), { lines: 5 });
    assert.deepEqual(viaLogs.lines, ['archived text']);

    const api = ci.take();
    assert.deepEqual(lines(api), [`GET /jobs/${job}/log`, `GET /jobs/${job}/log`, `GET /jobs/${job}/logs`]);
    for (const request of api) assert.equal(request.headers.authorization, `token ${RKH_TOKEN}`);
    const archived = ci.fake.archive.requests.filter((r) => r.path === `/jobs/${job}/log.txt`);
    assert.equal(archived.length, 3);
    for (const request of archived) {
      assert.equal(request.headers.authorization, undefined);
      assert.equal(request.headers['user-agent'], 'ci-slack/0.1.0');
    }
  });

  it('follows five redirects, relative ones too, keeping the token on its own origin', async () => {
    redirect(LOG_PATH, '/hop/1');
    redirect('/hop/1', `${ci.fake.url}/hop/2`, 301);
    redirect('/hop/2', '3', 307);
    redirect('/hop/3', '/hop/4?x=1', 308);
    redirect('/hop/4', '../hop/5', 302);
    ci.fake.fault({ path: '/hop/5' }, { status: 200, body: 'after five hops', times: 1 });
    assert.equal(await getJobLogText(ci.as(), FAILED_JOB), 'after five hops');
    const requests = ci.take();
    assert.deepEqual(lines(requests), [
      `GET ${LOG_PATH}`,
      'GET /hop/1',
      'GET /hop/2',
      'GET /hop/3',
      'GET /hop/4?x=1',
      'GET /hop/5',
    ]);
    for (const request of requests) assert.equal(request.headers.authorization, `token ${RKH_TOKEN}`);
  });

  it('refuses a sixth redirect with invalid_response', async () => {
    redirect(LOG_PATH, '/hop/1');
    for (let hop = 1; hop <= 5; hop += 1) redirect(`/hop/${hop}`, `/hop/${hop + 1}`);
    const error = await rejectsWith(getJobLogText(ci.as(), FAILED_JOB), 'invalid_response');
    assert.match(error.message, /redirected more than 5 times/);
    assert.equal(error.data.status, 302);
    assert.equal(error.data.path, LOG_PATH);
    assert.equal(ci.take().length, 6, 'the sixth redirect is not followed');
  });

  it('turns a POST answered 303 into a GET without body or Content-Type', async () => {
    redirect('/lint', '/lint/result', 303, 'POST');
    ci.fake.fault({ method: 'GET', path: '/lint/result' }, { status: 200, body: LINT_BODY, times: 1 });
    assert.deepEqual(await lintConfig(ci.as(), 'language: ruby'), [{ key: ['x'], message: 'moved' }]);
    const [post, get] = ci.take();
    assert.equal(post?.method, 'POST');
    assert.equal(get?.method, 'GET');
    assert.equal(get?.path, '/lint/result');
    assert.equal(get?.body, '');
    assert.equal(get?.headers['content-type'], undefined);
    assert.equal(get?.headers.authorization, `token ${RKH_TOKEN}`);
  });

  it('repeats a POST with its body on 307', async () => {
    redirect('/lint', '/lint/again', 307, 'POST');
    ci.fake.fault({ method: 'POST', path: '/lint/again' }, { status: 200, body: LINT_BODY, times: 1 });
    await lintConfig(ci.as(), 'language: ruby');
    const [first, again] = ci.take();
    assert.equal(again?.method, 'POST');
    assert.equal(again?.body, first?.body);
    assert.equal(again?.headers['content-type'], 'application/json');
  });

  it('refuses a redirect to anything but http(s)', async () => {
    redirect(LOG_PATH, 'file:///etc/passwd');
    const error = await rejectsWith(getJobLogText(ci.as(), FAILED_JOB), 'invalid_response');
    assert.match(error.message, /unsupported address/);
  });
});
