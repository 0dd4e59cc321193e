import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { authorizePusherChannels, exchangeGithubToken } from '../../src/ci/auth.js';
import { cancelBuild, restartBuild } from '../../src/ci/builds.js';
import type { CiSession } from '../../src/ci/client.js';
import type { CiErrorCode } from '../../src/ci/errors.js';
import { cancelJob, restartJob } from '../../src/ci/jobs.js';
import { lintConfig } from '../../src/ci/lint.js';
import { migrateRepository } from '../../src/ci/migration.js';
import { createEnvVar, setSshKey, updateEnvVar, updateSettings } from '../../src/ci/settings.js';
import { syncUser } from '../../src/ci/users.js';
import type { Fault } from '../fakes/ci/index.js';
import {
  clientFor,
  FAILED_JOB,
  LATE_MS,
  only,
  RAILS_BUILD,
  RAILS_ID,
  RKH_TOKEN,
  rejectsWith,
  type Setup,
  SHORT_TIMEOUT_MS,
  setUp,
  type TestClient,
} from './helpers.js';

const SEEDED_ENV_VAR = '8aa1c74d-dcc4-4e41-9087-1326b7c68abd';

/** POSTs and PATCHes change something: sending one twice could do it twice, so none is retried. */
describe('CI client: POST and PATCH are never retried', () => {
  let ci: Setup;
  /** Gives up quickly; used where the fake answers late. */
  let short: TestClient;
  before(async () => {
    ci = await setUp({ client: { maxRetries: 3 } });
    short = clientFor(ci.fake.url, { maxRetries: 3, requestTimeoutMs: SHORT_TIMEOUT_MS });
  });
  afterEach(() => {
    ci.fake.clearFaults();
    assert.deepEqual(ci.sleeps, [], 'no retry was planned');
    assert.deepEqual(short.sleeps, [], 'no retry was planned');
  });
  after(async () => {
    await short.client.close();
    await ci.close();
  });

  const running = () => {
    const build = ci.fake.state.addBuild(RAILS_ID, { state: 'started' });
    return { build: build.id, job: build.jobIds[0] ?? 0 };
  };

  const calls: Array<[string, string, (session: CiSession, anonymous: CiSession) => Promise<unknown>]> = [
    ['restart build', `/builds/${RAILS_BUILD}/restart`, (s) => restartBuild(s, RAILS_BUILD)],
    ['restart job', `/jobs/${FAILED_JOB}/restart`, (s) => restartJob(s, FAILED_JOB)],
    ['migrate', `/repo/${RAILS_ID}/migrate`, (s) => migrateRepository(s, RAILS_ID)],
    ['sync', '/users/sync', (s) => syncUser(s)],
    [
      'create env var',
      '/repos/settings/env_vars',
      (s) => createEnvVar(s, RAILS_ID, { name: 'ONCE', value: '1' }),
    ],
    ['pusher auth', '/pusher/auth', (s) => authorizePusherChannels(s, '1.1', ['private-user-267'])],
    ['lint', '/lint', (s) => lintConfig(s, 'language: ruby')],
    ['exchange token', '/auth/github', (_s, anonymous) => exchangeGithubToken(anonymous, 'github-token-rkh')],
  ];

  const faults: Array<[string, Fault, CiErrorCode]> = [
    ['503', { status: 503, times: 1 }, 'unavailable'],
    ['429 with Retry-After', { status: 429, headers: { 'retry-after': '1' }, times: 1 }, 'rate_limited'],
    ['a dropped connection', { drop: true, times: 1 }, 'unavailable'],
    ['a timeout', { delayMs: LATE_MS, times: 1 }, 'unavailable'],
  ];

  for (const [fault, spec, code] of faults) {
    it(`POSTs are sent once on ${fault}`, async () => {
      const client = 'delayMs' in spec ? short.client : ci.client;
      for (const [name, path, call] of calls) {
        ci.take();
        ci.fake.fault({ method: 'POST', path }, spec);
        const error = await rejectsWith(call(client.session('com', RKH_TOKEN), client.session('com')), code);
        await ci.settle(1);
        const request = only(ci.take());
        assert.equal(request.method, 'POST', name);
        assert.equal(request.path, path, name);
        assert.ok(error.transient, 'the error says a later try may work; the caller decides');
      }
    });
  }

  it('cancel of a build and of a job is sent once', async () => {
    const { build, job } = running();
    ci.take();
    ci.fake.fault({ method: 'POST', path: /\/cancel$/ }, { status: 500, times: 2 });
    await rejectsWith(cancelBuild(ci.as(), build), 'unavailable');
    await rejectsWith(cancelJob(ci.as(), job), 'unavailable');
    assert.equal(ci.take().length, 2);
    assert.equal(ci.fake.state.getBuild(build)?.state, 'started');
  });

  it('PATCHes are sent once', async () => {
    ci.take();
    ci.fake.fault({ method: 'PATCH', path: /./ }, { status: 503, times: 3 });
    await rejectsWith(updateSettings(ci.as(), RAILS_ID, { build_pushes: false }), 'unavailable');
    await rejectsWith(updateEnvVar(ci.as(), RAILS_ID, SEEDED_ENV_VAR, { value: 'x' }), 'unavailable');
    await rejectsWith(setSshKey(ci.as(), RAILS_ID, { value: 'key' }), 'unavailable');
    assert.deepEqual(
      ci.take().map((r) => r.method),
      ['PATCH', 'PATCH', 'PATCH'],
    );
  });
});
