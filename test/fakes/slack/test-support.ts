/** Small helpers for tests that drive the fake Slack with the real Slack SDK clients. */
import { type Logger, LogLevel, webApi } from '@slack/bolt';
import { FAKE_IDENTITY } from './identity.js';
import type { FakeSlack } from './types.js';

/** A clock the test moves by hand, for the fake's `now` option. */
export function manualClock(startMs = 1_700_000_000_000) {
  let nowMs = startMs;
  return {
    now: () => nowMs,
    advance: (ms: number) => {
      nowMs += ms;
    },
  };
}

/** Keeps the SDKs quiet: they log every `[ERROR]` line of a rejected call. */
export const silentLogger: Logger = {
  debug: () => undefined,
  info: () => undefined,
  warn: () => undefined,
  error: () => undefined,
  setLevel: () => undefined,
  getLevel: () => LogLevel.ERROR,
  setName: () => undefined,
};

/**
 * A WebClient pointed at the fake, without retries: a test that meets a 429 sees it at once
 * (`rejectRateLimitedCalls`) instead of the client sleeping for Retry-After.
 */
export function webClientFor(slack: FakeSlack, token: string = FAKE_IDENTITY.botToken): webApi.WebClient {
  return new webApi.WebClient(token, {
    slackApiUrl: slack.apiUrl,
    logger: silentLogger,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
  });
}

/** The `data` of a WebAPIPlatformError (the `ok: false` body), or a failure when the call succeeded. */
export async function platformError(call: Promise<unknown>): Promise<Record<string, unknown>> {
  try {
    await call;
  } catch (error) {
    if (error instanceof Error && 'data' in error && typeof error.data === 'object' && error.data !== null) {
      return { ...error.data };
    }
    throw error;
  }
  throw new Error('expected the call to be rejected by the fake Slack');
}
