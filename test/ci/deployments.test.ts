import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { after, before, describe, it } from 'node:test';
import { getCurrentUser } from '../../src/ci/auth.js';
import { CiClient } from '../../src/ci/client.js';
import { getRoot, getServiceConfig } from '../../src/ci/root.js';
import { type FakeCi, startFakeCi } from '../fakes/ci/index.js';
import { MEDIA_TYPE, RKH_TOKEN, rejectsWith, USER_AGENT, VERSION_HEADER } from './helpers.js';

const ORG_TOKEN = 'org-token-rkh';

function clientOver(urls: { com: string; org: string }): CiClient {
  return new CiClient({
    deployments: {
      com: { name: 'com', apiUrl: urls.com, webUrl: urls.com },
      org: { name: 'org', apiUrl: urls.org, webUrl: urls.org },
    },
    mediaType: MEDIA_TYPE,
    versionHeader: VERSION_HEADER,
    connectTimeoutMs: 1_000,
    requestTimeoutMs: 10_000,
    maxRetries: 0,
    userAgent: USER_AGENT,
  });
}

describe('CI client: deployments com and org, each with its own token', () => {
  let com: FakeCi;
  let org: FakeCi;
  let client: CiClient;
  before(async () => {
    com = await startFakeCi({ deployment: 'com' });
    org = await startFakeCi({ deployment: 'org' });
    // The same person has a different token on each deployment.
    org.state.revokeToken(RKH_TOKEN);
    org.state.addToken('rkh', ORG_TOKEN);
    client = clientOver({ com: com.url, org: org.url });
  });
  after(async () => {
    await client.close();
    await Promise.all([com.close(), org.close()]);
  });

  it('a session talks to its own deployment only, with its own token', async () => {
    const onCom = client.session('com', RKH_TOKEN);
    const onOrg = client.session('org', ORG_TOKEN);
    assert.equal(onCom.name, 'com');
    assert.equal(onOrg.deployment.apiUrl, org.url);
    assert.equal((await getCurrentUser(onCom)).login, 'rkh');
    assert.equal((await getCurrentUser(onOrg)).login, 'rkh');
    assert.equal((await getServiceConfig(onOrg)).host, 'travis-ci.org');
    assert.deepEqual(
      com.requests.map((r) => r.headers.authorization),
      [`token ${RKH_TOKEN}`],
    );
    assert.deepEqual(
      org.requests.map((r) => r.headers.authorization),
      [`token ${ORG_TOKEN}`, `token ${ORG_TOKEN}`],
    );
  });

  it('a token of one deployment is refused by the other (they are not interchangeable)', async () => {
    await rejectsWith(getCurrentUser(client.session('org', RKH_TOKEN)), 'unauthenticated');
  });

  it('a redirect to the other deployment does not carry the token there', async () => {
    com.fault({ path: '/users' }, { status: 307, headers: { location: `${org.url}/users` }, times: 1 });
    const seen = org.requests.length;
    const error = await rejectsWith(getCurrentUser(client.session('com', RKH_TOKEN)), 'unauthenticated');
    assert.equal(error.data.errorType, 'login_required');
    const [redirected] = org.requests.slice(seen);
    assert.equal(redirected?.path, '/users');
    assert.equal(redirected?.headers.authorization, undefined);
  });

  it('never shows its token when serialised', () => {
    const session = client.session('com', RKH_TOKEN);
    assert.deepEqual(session.toJSON(), { deployment: 'com', authenticated: true });
    assert.ok(!JSON.stringify({ session }).includes(RKH_TOKEN));
    assert.equal(client.session('org').authenticated, false);
  });

  it('lists the configured deployments', () => {
    assert.deepEqual(
      client.deployments.map((d) => d.name),
      ['com', 'org'],
    );
  });
});

describe('CI client: a keep-alive pool per deployment', () => {
  let server: Server;
  let connections = 0;
  let url = '';
  before(async () => {
    server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"hello":"world"}');
    });
    server.on('connection', () => {
      connections += 1;
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  after(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  it('reuses one connection within a deployment and opens another for the other deployment', async (t) => {
    const client = clientOver({ com: url, org: url });
    t.after(() => client.close());
    assert.equal(client.agentFor('com'), client.agentFor('com'));
    assert.notEqual(client.agentFor('com'), client.agentFor('org'));
    for (let i = 0; i < 10; i += 1) await getRoot(client.session('com', RKH_TOKEN));
    // undici may open a second socket while the first is being released; never one per request.
    const comConnections = connections;
    assert.ok(comConnections <= 2, `keep-alive: ten requests, ${comConnections} connections`);
    await getRoot(client.session('org', ORG_TOKEN));
    assert.equal(connections, comConnections + 1, 'the other deployment has a pool of its own');
    for (let i = 0; i < 5; i += 1) await getRoot(client.session(i % 2 === 0 ? 'com' : 'org'));
    assert.equal(connections, comConnections + 1, 'each deployment keeps reusing its own connections');
  });
});
