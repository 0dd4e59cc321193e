import { CiClient, type CiSession } from '../../src/ci/client.js';
import { type FakeCi, type FakeCiOptions, startFakeCi } from '../fakes/ci/index.js';

export const WEB_URL = 'https://app.travis-ci.com';

export interface OpsWorld {
  ci: FakeCi;
  client: CiClient;
  /** A session with the token of a seeded user (`token-<login>`). */
  as(login: string): CiSession;
  close(): Promise<void>;
}

/**
 * A fake CI and our real client for ops tests. Bodies read whole are capped at 1 MB, so a use case
 * that read a large log whole instead of streaming it would fail here.
 */
export async function startOpsWorld(options: FakeCiOptions = {}): Promise<OpsWorld> {
  const ci = await startFakeCi(options);
  const client = new CiClient({
    deployments: { com: { name: 'com', apiUrl: ci.url, webUrl: WEB_URL } },
    mediaType: 'application/vnd.travis-ci.2.1+json',
    versionHeader: 'Travis-API-Version',
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 2_000,
    maxRetries: 1,
    userAgent: 'ci-slack-test/0.0.0',
    backoff: { baseMs: 5, maxMs: 20 },
    maxBodyBytes: 1024 * 1024,
  });
  return {
    ci,
    client,
    as: (login) => client.session('com', `token-${login}`),
    async close() {
      await client.close();
      await ci.close();
    },
  };
}
