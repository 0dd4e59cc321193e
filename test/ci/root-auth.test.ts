import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  authorizePusherChannels,
  exchangeGithubToken,
  getCurrentUser,
  handshakeUrl,
  postMessageUrl,
} from '../../src/ci/auth.js';
import { getRoot, getServiceConfig } from '../../src/ci/root.js';
import { pusherSignature } from '../fakes/ci/index.js';
import {
  FAILED_JOB,
  lines,
  only,
  RKH_TOKEN,
  rejectsWith,
  SECRET_REPO_ID,
  type Setup,
  setUp,
} from './helpers.js';

describe('CI client: root, config and authentication (4.1, 4.2, POST /pusher/auth)', () => {
  let ci: Setup;
  before(async () => {
    ci = await setUp();
  });
  after(() => ci.close());

  it('GET / answers the greeting object, without a token', async () => {
    assert.deepEqual(await getRoot(ci.as(null)), { hello: 'world' });
    assert.deepEqual(lines(ci.take()), ['GET /']);
  });

  it('GET /config gives the realtime key, the provider API and its scopes', async () => {
    const config = await getServiceConfig(ci.as(null));
    assert.equal(config.pusher?.key, ci.fake.pusher.key);
    assert.equal(config.github?.api_url, 'https://api.github.com');
    assert.ok(config.github?.scopes?.includes('write:repo_hook'));
    assert.equal(config.host, 'travis-ci.com');
    assert.deepEqual(lines(ci.take()), ['GET /config']);
  });

  it('GET /users answers the user the token belongs to', async () => {
    const user = await getCurrentUser(ci.as());
    assert.equal(user.login, 'rkh');
    assert.equal(user.id, 267);
    assert.deepEqual(user.channels, ['private-user-267']);
    assert.deepEqual(lines(ci.take()), ['GET /users']);
  });

  it('POST /auth/github exchanges a provider token for the CI token, as JSON', async () => {
    assert.equal(await exchangeGithubToken(ci.as(null), 'github-token-rkh'), RKH_TOKEN);
    const request = only(ci.take());
    assert.equal(request.method, 'POST');
    assert.equal(request.path, '/auth/github');
    assert.equal(request.headers['content-type'], 'application/json');
    assert.deepEqual(JSON.parse(request.body), { github_token: 'github-token-rkh' });
    assert.equal(request.headers.authorization, undefined);
  });

  it('POST /auth/github with an unknown provider token is refused with the service message', async () => {
    const error = await rejectsWith(
      exchangeGithubToken(ci.as(null), 'github-token-nobody'),
      'insufficient_access',
    );
    assert.equal(error.data.status, 403);
    assert.equal(error.data.errorType, 'not_a_travis_user');
    assert.equal(error.data.serviceMessage, 'not a Travis user');
    ci.take();
  });

  it('POST /pusher/auth signs the private channels the user may read and leaves out the others', async () => {
    const channels = await authorizePusherChannels(ci.as(), '123.456', [
      `private-job-${FAILED_JOB}`,
      `private-repo-${SECRET_REPO_ID}`,
      'private-user-4242',
    ]);
    const { key, secret } = ci.fake.pusher;
    assert.deepEqual(channels, {
      [`private-job-${FAILED_JOB}`]: `${key}:${pusherSignature(secret, '123.456', `private-job-${FAILED_JOB}`)}`,
      [`private-repo-${SECRET_REPO_ID}`]: `${key}:${pusherSignature(secret, '123.456', `private-repo-${SECRET_REPO_ID}`)}`,
    });
    const request = only(ci.take());
    assert.equal(request.path, '/pusher/auth');
    assert.deepEqual(JSON.parse(request.body), {
      socket_id: '123.456',
      channels: [`private-job-${FAILED_JOB}`, `private-repo-${SECRET_REPO_ID}`, 'private-user-4242'],
    });
  });

  it('POST /pusher/auth needs a token, refused before sending', async () => {
    await rejectsWith(authorizePusherChannels(ci.as(null), '1.2', ['private-user-267']), 'unauthenticated');
    assert.deepEqual(ci.take(), []);
  });

  it('builds the browser handshake addresses from the deployment, without a request', () => {
    const deployment = ci.client.deployment('com');
    assert.equal(handshakeUrl(deployment), `${ci.fake.url}/auth/handshake`);
    assert.equal(
      handshakeUrl(deployment, 'https://slack.example/done?x=1&y=2'),
      `${ci.fake.url}/auth/handshake?redirect_uri=https%3A%2F%2Fslack.example%2Fdone%3Fx%3D1%26y%3D2`,
    );
    assert.equal(postMessageUrl(deployment), `${ci.fake.url}/auth/post_message`);
    const enterprise = {
      name: 'enterprise' as const,
      apiUrl: 'https://ci.example.com/api',
      webUrl: 'https://ci.example.com',
    };
    assert.equal(handshakeUrl(enterprise), 'https://ci.example.com/api/auth/handshake');
    assert.equal(postMessageUrl(enterprise), 'https://ci.example.com/api/auth/post_message');
    assert.deepEqual(ci.take(), []);
  });
});
