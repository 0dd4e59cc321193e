import { webApi } from '@slack/bolt';

/**
 * What a failed call means for the outbox. Callers of the outbox only ever see
 * `SlackOutboxError`; this is the outbox's own decision table.
 */
export type Failure =
  | { kind: 'rate_limited'; retryAfterMs: number }
  | { kind: 'transient'; code: string; status?: number }
  | { kind: 'permanent'; code: string; status?: number };

/** `ok: false` answers that say "try again" rather than "this request is wrong". */
const TRANSIENT_PLATFORM_ERRORS = new Set([
  'internal_error',
  'fatal_error',
  'service_unavailable',
  'request_timeout',
]);

/** Errors about the channel itself: every later post to it would fail the same way. */
export const CHANNEL_ERRORS = new Set([
  'channel_not_found',
  'not_in_channel',
  'is_archived',
  'restricted_action',
]);

/** Errors about the message being edited: a newer edit of it would fail the same way. */
export const MESSAGE_ERRORS = new Set([
  ...CHANNEL_ERRORS,
  'message_not_found',
  'cant_update_message',
  'edit_window_closed',
]);

export function classifyFailure(error: unknown): Failure {
  if (error instanceof webApi.WebAPIRateLimitedError) {
    return { kind: 'rate_limited', retryAfterMs: Math.max(1, error.retryAfter) * 1000 };
  }
  if (error instanceof webApi.WebAPIPlatformError) {
    const code = error.data.error;
    if (code === 'ratelimited') return { kind: 'rate_limited', retryAfterMs: 1000 };
    return { kind: TRANSIENT_PLATFORM_ERRORS.has(code) ? 'transient' : 'permanent', code };
  }
  if (error instanceof webApi.WebAPIHTTPError) {
    const transient = error.statusCode >= 500 || error.statusCode === 408;
    return { kind: transient ? 'transient' : 'permanent', code: 'http_error', status: error.statusCode };
  }
  if (error instanceof webApi.WebAPIRequestError) return { kind: 'transient', code: 'request_error' };
  // Not an answer from Slack (e.g. a 429 without a usable Retry-After): worth a few more tries.
  return { kind: 'transient', code: 'unexpected_error' };
}

/** Codes the outbox itself gives, besides Slack's own error codes. */
export type LocalErrorCode = 'queue_full' | 'outbox_closed' | 'invalid_response';

export interface SlackOutboxErrorData {
  teamId: string;
  method: string;
  channel?: string;
  ts?: string;
  /** HTTP status for `http_error`. */
  status?: number;
  /** Calls made for this request before giving up (0 when refused locally). */
  attempts: number;
  /** True when the request failed only after retries of a transient error (5xx, network). */
  transient: boolean;
}

/**
 * The one error type the outbox rejects with. `code` is Slack's error code (`channel_not_found`,
 * `message_not_found`, `invalid_blocks`, `msg_too_long` …), `http_error` / `request_error` when
 * Slack could not be reached after retries, or a `LocalErrorCode`.
 */
export class SlackOutboxError extends Error {
  override readonly name = 'SlackOutboxError';
  readonly code: string;
  readonly data: SlackOutboxErrorData;

  constructor(code: string, message: string, data: SlackOutboxErrorData, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = data;
  }
}

/** Where a request was going, for its error. */
export interface ErrorTarget {
  teamId: string;
  method: string;
  channel?: string | undefined;
  ts?: string | undefined;
}

export function outboxError(
  target: ErrorTarget,
  code: string,
  details: {
    attempts: number;
    transient: boolean;
    status?: number | undefined;
    cause?: unknown;
    /** Says it better than the default sentence (local refusals). */
    message?: string;
  },
): SlackOutboxError {
  const { teamId, method, channel, ts } = target;
  const { attempts, transient, status, cause } = details;
  const where = channel === undefined ? '' : ` in ${channel}`;
  const message =
    details.message ??
    (code === 'outbox_closed'
      ? 'the Slack outbox is closed'
      : transient
        ? `Slack did not take ${method}${where} after ${attempts} attempts (${code}${status ? ` ${status}` : ''})`
        : `Slack refused ${method}${where}: ${code}`);
  const data: SlackOutboxErrorData = {
    teamId,
    method,
    ...(channel !== undefined ? { channel } : {}),
    ...(ts !== undefined ? { ts } : {}),
    ...(status !== undefined ? { status } : {}),
    attempts,
    transient,
  };
  return new SlackOutboxError(code, message, data, cause === undefined ? undefined : { cause });
}
