/**
 * Shared set-up for the CI client tests: a fake CI service (test/fakes/ci) and a `CiClient` pointed
 * at it, with the sleeps between retries recorded instead of waited for.
 */
import assert from 'node:assert/strict';
import { createServer } from 'node:net';
import { setTimeout as sleep } from 'node:timers/promises';
import { CiClient, type CiClientOptions, type CiSession } from '../../src/ci/client.js';
import { CiError, type CiErrorCode } from '../../src/ci/errors.js';
import type { Deployment } from '../../src/config.js';
import { type FakeCi, type FakeCiOptions, type RecordedRequest, startFakeCi } from '../fakes/ci/index.js';

export const MEDIA_TYPE = 'application/vnd.travis-ci.2.1+json';
export const VERSION_HEADER = 'Travis-API-Version';
export const USER_AGENT = 'ci-slack/0.1.0';

/** Seeded users of the fake (see test/fakes/ci/seed.ts). */
/** For timeout tests: the client gives up after SHORT_TIMEOUT_MS; the fake answers after LATE_MS. */
export const SHORT_TIMEOUT_MS = 150;
export const LATE_MS = 2_000;

export const RKH_TOKEN = 'token-rkh';
export const VISITOR_TOKEN = 'token-visitor';
export const RAILS_ID = 891;
export const RAILS_BUILD = 4125095;
export const FAILED_JOB = 4125096;
export const FAILED_JOB_LOG = 3168318;
export const SECRET_REPO_ID = 9001;
export const SECRET_BUILD = 9100;

export interface TestClient {
  client: CiClient;
  /** The delays the client asked to sleep, in order (nothing is actually waited for). */
  sleeps: number[];
}

/** A client for one deployment at `url`; retries sleep for 0 ms and record how long they wanted to. */
export function clientFor(
  url: string,
  overrides: Partial<CiClientOptions> = {},
  deployment: Deployment = 'com',
): TestClient {
  const sleeps: number[] = [];
  const client = new CiClient({
    deployments: { [deployment]: { name: deployment, apiUrl: url, webUrl: url } },
    mediaType: MEDIA_TYPE,
    versionHeader: VERSION_HEADER,
    // Generous, so that a loaded machine never turns a slow answer into a timeout; the timeout tests
    // set a short one and make the fake answer far later than that.
    connectTimeoutMs: 5_000,
    requestTimeoutMs: 10_000,
    maxRetries: 2,
    userAgent: USER_AGENT,
    sleep: async (ms) => {
      sleeps.push(ms);
    },
    ...overrides,
  });
  return { client, sleeps };
}

export interface Setup extends TestClient {
  fake: FakeCi;
  /** A session on the fake, with rkh's token unless another (or none) is given. */
  as(token?: string | null): CiSession;
  /** Requests the fake received since the last call of `take` (or since start). */
  take(): RecordedRequest[];
  /**
   * Waits until the fake has received `count` requests since the last `take`, then `graceMs` more
   * (a client timeout can fire before the fake has read the request; a retry would arrive within
   * the grace). Does not fail on its own: `take` and `only` judge what arrived.
   */
  settle(count: number, graceMs?: number): Promise<void>;
  close(): Promise<void>;
}

/** Starts a fake CI service and a client for it; call `close` in `after`. */
export async function setUp(
  options: { fake?: FakeCiOptions; client?: Partial<CiClientOptions> } = {},
): Promise<Setup> {
  const fake = await startFakeCi(options.fake);
  // The client calls the fake by the deployment it plays (com unless told otherwise).
  const deployment = options.fake?.deployment ?? 'com';
  const test = clientFor(fake.url, options.client, deployment);
  let seen = 0;
  return {
    ...test,
    fake,
    as: (token = RKH_TOKEN) => test.client.session(deployment, token ?? undefined),
    take: () => {
      const fresh = fake.requests.slice(seen);
      seen = fake.requests.length;
      return fresh;
    },
    settle: async (count, graceMs = 100) => {
      const deadline = Date.now() + 5_000;
      while (fake.requests.length - seen < count && Date.now() < deadline) await sleep(10);
      await sleep(graceMs);
    },
    close: async () => {
      await test.client.close();
      await fake.close();
    },
  };
}

/** The one request the fake received since the last `take`, failing when there were more or none. */
export function only(requests: RecordedRequest[]): RecordedRequest {
  assert.equal(requests.length, 1, `expected one request, got ${requests.map((r) => r.path).join(', ')}`);
  const [request] = requests;
  assert.ok(request);
  return request;
}

/** `method path?query` of each request, for compact assertions. */
export function lines(requests: RecordedRequest[]): string[] {
  return requests.map((r) => {
    const query = r.query.toString();
    return `${r.method} ${r.path}${query ? `?${decodeURIComponent(query)}` : ''}`;
  });
}

/** Awaits `promise`, asserts it rejected with a CiError of `code`, and returns that error. */
export async function rejectsWith(promise: Promise<unknown>, code: CiErrorCode): Promise<CiError> {
  try {
    await promise;
  } catch (error) {
    assert.ok(error instanceof CiError, `expected a CiError, got ${String(error)}`);
    assert.equal(error.code, code, `expected ${code}, got ${error.code}: ${error.message}`);
    return error;
  }
  assert.fail(`expected a CiError ${code}, but the call succeeded`);
}

/** A local port nothing listens on (taken, then released). */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  assert.ok(address && typeof address === 'object');
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return address.port;
}
