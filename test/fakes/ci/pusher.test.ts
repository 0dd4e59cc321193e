import assert from 'node:assert/strict';
import { createHmac } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type FakeCi, startFakeCi } from './index.js';
import { call, field } from './test-helpers.js';

const PUSHER = { key: 'app-key', secret: 'app-secret' };

/** The standard Pusher private-channel signature, computed independently of the fake. */
function expectedAuth(socketId: string, channel: string): string {
  return `${PUSHER.key}:${createHmac('sha256', PUSHER.secret).update(`${socketId}:${channel}`).digest('hex')}`;
}

describe('fake CI: POST /pusher/auth', () => {
  let ci: FakeCi;
  before(async () => {
    ci = await startFakeCi({ pusher: PUSHER });
  });
  after(() => ci.close());

  it('signs every private channel the user may read', async () => {
    const channels = ['private-user-267', 'private-repo-9001', 'private-job-9101', 'private-job-4125096'];
    const response = await call(ci.url, '/pusher/auth', {
      method: 'POST',
      token: 'token-rkh',
      body: { channels, socket_id: '123.456' },
    });
    assert.equal(response.status, 200);
    assert.deepEqual(response.json, {
      channels: Object.fromEntries(channels.map((channel) => [channel, expectedAuth('123.456', channel)])),
    });
  });

  it('leaves out channels the user may not read', async () => {
    const response = await call(ci.url, '/pusher/auth', {
      method: 'POST',
      token: 'token-visitor',
      body: {
        channels: [
          'private-user-4242',
          'private-user-267',
          'private-repo-9001',
          'private-job-9101',
          'private-repo-891',
        ],
        socket_id: '1.2',
      },
    });
    assert.deepEqual(Object.keys(field(response.json, 'channels') as object), [
      'private-user-4242',
      'private-repo-891',
    ]);
  });

  it('answers 403 when no channel is allowed, 401 without token, 400 without socket id', async () => {
    const forbidden = await call(ci.url, '/pusher/auth', {
      method: 'POST',
      token: 'token-visitor',
      body: { channels: ['private-job-9101', 'presence-x', 'job-1'], socket_id: '1.2' },
    });
    assert.equal(forbidden.status, 403);
    const anonymous = await call(ci.url, '/pusher/auth', {
      method: 'POST',
      body: { channels: ['private-job-4125096'], socket_id: '1.2' },
    });
    assert.equal(anonymous.status, 401);
    const noSocket = await call(ci.url, '/pusher/auth', {
      method: 'POST',
      token: 'token-rkh',
      body: { channels: [] },
    });
    assert.equal(noSocket.status, 400);
  });

  it('takes a form body with channel_name too', async () => {
    const response = await call(ci.url, '/pusher/auth', {
      method: 'POST',
      token: 'token-rkh',
      body: 'socket_id=9.9&channel_name=private-job-9101',
      contentType: 'application/x-www-form-urlencoded',
    });
    assert.deepEqual(response.json, {
      channels: { 'private-job-9101': expectedAuth('9.9', 'private-job-9101') },
    });
  });
});
