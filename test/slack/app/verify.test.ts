import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  MAX_REQUEST_AGE_SECONDS,
  parseSlackBody,
  verifySlackRequest,
} from '../../../src/slack/front/verify.js';
import { signBody } from '../../helpers/slack-requests.js';

const SECRET = 'signing-secret';
const NOW = 1_700_000_000;
const BODY = 'command=%2Fci&text=help';

function request(overrides: { timestamp?: string; signature?: string; rawBody?: string } = {}) {
  return {
    timestamp: String(NOW),
    signature: signBody(SECRET, NOW, BODY),
    rawBody: BODY,
    ...overrides,
  };
}

describe('verifySlackRequest', () => {
  it('accepts a body signed with the signing secret', () => {
    assert.equal(verifySlackRequest(SECRET, request(), NOW), 'ok');
  });

  it('calls a request without its headers, or with a timestamp that is not a number, missing', () => {
    assert.equal(verifySlackRequest(SECRET, { ...request(), timestamp: undefined }, NOW), 'missing');
    assert.equal(verifySlackRequest(SECRET, { ...request(), signature: undefined }, NOW), 'missing');
    assert.equal(verifySlackRequest(SECRET, request({ timestamp: '17e8' }), NOW), 'missing');
  });

  it('refuses a timestamp more than five minutes away, either way', () => {
    const edge = NOW - MAX_REQUEST_AGE_SECONDS;
    const signedAt = (t: number) => request({ timestamp: String(t), signature: signBody(SECRET, t, BODY) });
    assert.equal(verifySlackRequest(SECRET, signedAt(edge), NOW), 'ok');
    assert.equal(verifySlackRequest(SECRET, signedAt(edge - 1), NOW), 'stale');
    assert.equal(verifySlackRequest(SECRET, signedAt(NOW + MAX_REQUEST_AGE_SECONDS + 1), NOW), 'stale');
  });

  it('refuses another secret, another body, another timestamp or a cut signature', () => {
    const forgeries = [
      request({ signature: signBody('other-secret', NOW, BODY) }),
      request({ rawBody: `${BODY}&user_id=U0` }),
      request({ timestamp: String(NOW + 1) }),
      request({ signature: signBody(SECRET, NOW, BODY).slice(0, -1) }),
      request({ signature: `${signBody(SECRET, NOW, BODY)}0` }),
    ];
    for (const forged of forgeries) assert.equal(verifySlackRequest(SECRET, forged, NOW), 'forged');
  });
});

describe('parseSlackBody', () => {
  it('reads form fields, a form payload as JSON, and a JSON body', () => {
    assert.deepEqual(parseSlackBody('application/x-www-form-urlencoded', BODY), {
      command: '/ci',
      text: 'help',
    });
    const payload = new URLSearchParams({ payload: JSON.stringify({ type: 'block_actions' }) }).toString();
    assert.deepEqual(parseSlackBody('application/x-www-form-urlencoded; charset=utf-8', payload), {
      type: 'block_actions',
    });
    assert.deepEqual(parseSlackBody('application/json', '{"type":"event_callback"}'), {
      type: 'event_callback',
    });
  });

  it('gives nothing for broken JSON, JSON that is not an object, or another content type', () => {
    assert.equal(parseSlackBody('application/json', '{"type":'), undefined);
    assert.equal(parseSlackBody('application/json', '[1,2]'), undefined);
    assert.equal(parseSlackBody('application/json', 'null'), undefined);
    assert.equal(parseSlackBody('application/x-www-form-urlencoded', 'payload=%7Bbroken'), undefined);
    assert.equal(parseSlackBody('text/plain', BODY), undefined);
    assert.equal(parseSlackBody(undefined, BODY), undefined);
  });
});
