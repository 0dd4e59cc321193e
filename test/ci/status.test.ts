import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { errorFromResponse, parseErrorBody, parseRetryAfter } from '../../src/ci/status.js';
import { errorFromTransport } from '../../src/ci/transport-errors.js';

/** The error shapes the service (and the fake) answer with, each read into the same fields. */
describe('parseErrorBody', () => {
  it('reads V3 errors and the V2 {error_type, error_message} shape', () => {
    assert.deepEqual(
      parseErrorBody(
        JSON.stringify({
          '@type': 'error',
          error_type: 'insufficient_access',
          error_message: 'operation requires write access to repository',
          resource_type: 'repository',
          permission: 'write',
          repository: { id: 1 },
        }),
      ),
      {
        errorType: 'insufficient_access',
        serviceMessage: 'operation requires write access to repository',
        resourceType: 'repository',
        permission: 'write',
      },
    );
  });

  it('reads {error: text} and {error: {message, code}}', () => {
    assert.deepEqual(parseErrorBody('{"error":"nope"}'), { serviceMessage: 'nope' });
    assert.deepEqual(parseErrorBody('{"error":{"message":"can\'t","code":"cant_cancel"}}'), {
      serviceMessage: "can't",
      errorType: 'cant_cancel',
    });
  });

  it("reads a restart's flash, preferring the error entry", () => {
    const body = {
      result: false,
      flash: [{ notice: 'fyi' }, { error: 'This build currently can not be restarted.' }],
    };
    assert.deepEqual(parseErrorBody(JSON.stringify(body)), {
      serviceMessage: 'This build currently can not be restarted.',
    });
  });

  it('reads {message} and {message, errors: [{field, code}]}', () => {
    assert.deepEqual(parseErrorBody('{"message":"Sync already in progress."}'), {
      serviceMessage: 'Sync already in progress.',
      errorType: undefined,
      fieldPath: undefined,
    });
    const validation = {
      message: 'Validation failed',
      errors: [
        { field: 'name', code: 'not_unique' },
        { field: 'value', code: 'missing_field' },
      ],
    };
    assert.deepEqual(parseErrorBody(JSON.stringify(validation)), {
      serviceMessage: 'Validation failed (name not_unique, value missing_field)',
      errorType: 'not_unique',
      fieldPath: 'name',
    });
  });

  it('keeps a short plain-text body as the message, but not HTML or XML', () => {
    assert.deepEqual(parseErrorBody('Bad Gateway\n'), { serviceMessage: 'Bad Gateway' });
    assert.deepEqual(parseErrorBody('<html><body>502</body></html>'), {});
    assert.deepEqual(parseErrorBody('x'.repeat(600)), {});
    assert.deepEqual(parseErrorBody('[1,2]'), {});
  });
});

describe('parseRetryAfter', () => {
  it('reads seconds and HTTP dates, and ignores anything else', () => {
    const now = Date.parse('2024-05-01T10:00:00Z');
    assert.equal(parseRetryAfter('3', now), 3_000);
    assert.equal(parseRetryAfter('0.5', now), 500);
    assert.equal(parseRetryAfter('Wed, 01 May 2024 10:00:30 GMT', now), 30_000);
    assert.equal(parseRetryAfter('Wed, 01 May 2024 09:00:00 GMT', now), 0);
    assert.equal(parseRetryAfter('soon', now), undefined);
    assert.equal(parseRetryAfter(undefined, now), undefined);
  });
});

describe('errorFromResponse', () => {
  const answer = (status: number, body = '', isRead = true) =>
    errorFromResponse({ status, body, retryAfter: undefined, isRead }, {});

  it('maps statuses when the body names no error type', () => {
    assert.equal(answer(401).code, 'unauthenticated');
    assert.equal(answer(403).code, 'insufficient_access');
    assert.equal(answer(404).code, 'not_found');
    assert.equal(answer(400).code, 'not_found', "V2.1's 400 for a read the caller may not see");
    assert.equal(answer(400, '', false).code, 'rejected', 'a refused write is not a missing resource');
    assert.equal(answer(409).code, 'conflict');
    assert.equal(answer(422).code, 'rejected');
    assert.equal(answer(429).code, 'rate_limited');
    assert.equal(answer(500).code, 'unavailable');
    assert.equal(answer(504).data.reason, 'server_error');
  });

  it('lets the error type win over the status', () => {
    assert.equal(answer(403, '{"error_type":"login_required"}').code, 'unauthenticated');
    assert.equal(answer(403, '{"error_type":"not_found"}').code, 'not_found');
    assert.equal(answer(403, '{"error_type":"migrated_repository"}').code, 'migrated_repository');
    assert.equal(answer(403, '{"error_type":"repo_migrated"}').code, 'already_migrated');
    assert.equal(answer(400, '{"error_type":"insufficient_access"}').code, 'insufficient_access');
  });

  it('keeps the request data it is given', () => {
    const error = errorFromResponse(
      { status: 503, body: '', retryAfter: '2', isRead: true },
      { deployment: 'org', method: 'GET', path: '/repos/1' },
    );
    assert.deepEqual(error.data, {
      deployment: 'org',
      method: 'GET',
      path: '/repos/1',
      status: 503,
      reason: 'server_error',
      retryAfterMs: 2_000,
    });
  });
});

describe('errorFromTransport', () => {
  it('names the reason from the error code, looking through causes', () => {
    const reason = (error: unknown) => errorFromTransport(error, {}).data.reason;
    assert.equal(reason({ code: 'UND_ERR_CONNECT_TIMEOUT' }), 'connect_timeout');
    assert.equal(reason({ code: 'UND_ERR_HEADERS_TIMEOUT' }), 'timeout');
    assert.equal(reason({ code: 'UND_ERR_BODY_TIMEOUT' }), 'timeout');
    assert.equal(reason(new TypeError('fetch failed', { cause: { code: 'ECONNREFUSED' } })), 'refused');
    assert.equal(reason({ code: 'ECONNRESET' }), 'reset');
    assert.equal(reason({ code: 'UND_ERR_SOCKET' }), 'reset');
    assert.equal(reason({ code: 'ENOTFOUND' }), 'network');
    assert.equal(reason(new DOMException('request timed out', 'TimeoutError')), 'timeout');
    assert.equal(reason(new Error('something else')), 'network');
    assert.equal(errorFromTransport(new Error('x'), {}).code, 'unavailable');
  });
});
