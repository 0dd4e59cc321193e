import { createHmac, timingSafeEqual } from 'node:crypto';

/** Slack refuses to let a request older than this be replayed; so do we. */
export const MAX_REQUEST_AGE_SECONDS = 5 * 60;

export type Verdict = 'ok' | 'missing' | 'stale' | 'forged';

/**
 * Checks `X-Slack-Signature` (`v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>` with the
 * signing secret) and `X-Slack-Request-Timestamp` (at most five minutes old).
 */
export function verifySlackRequest(
  signingSecret: string,
  request: { timestamp: string | undefined; signature: string | undefined; rawBody: string },
  nowSeconds = Math.floor(Date.now() / 1000),
): Verdict {
  const { timestamp, signature, rawBody } = request;
  if (!timestamp || !signature || !/^\d+$/.test(timestamp)) return 'missing';
  if (Math.abs(nowSeconds - Number(timestamp)) > MAX_REQUEST_AGE_SECONDS) return 'stale';
  const expected = Buffer.from(
    `v0=${createHmac('sha256', signingSecret).update(`v0:${timestamp}:${rawBody}`).digest('hex')}`,
  );
  const given = Buffer.from(signature);
  return given.length === expected.length && timingSafeEqual(given, expected) ? 'ok' : 'forged';
}

/** A Slack request body as Bolt reads it: form fields, the JSON of a form's `payload`, or JSON. */
export function parseSlackBody(
  contentType: string | undefined,
  rawBody: string,
): Record<string, unknown> | undefined {
  try {
    if (contentType?.startsWith('application/json')) {
      const json: unknown = JSON.parse(rawBody);
      return typeof json === 'object' && json !== null && !Array.isArray(json)
        ? (json as Record<string, unknown>)
        : undefined;
    }
    if (contentType?.startsWith('application/x-www-form-urlencoded')) {
      const form = new URLSearchParams(rawBody);
      const payload = form.get('payload');
      if (payload === null) return Object.fromEntries(form);
      const json: unknown = JSON.parse(payload);
      return typeof json === 'object' && json !== null && !Array.isArray(json)
        ? (json as Record<string, unknown>)
        : undefined;
    }
  } catch {
    return undefined;
  }
  return undefined;
}
