import type { Deployment } from '../config.js';

/**
 * Every failure of a CI call becomes a `CiError` with a stable `code`. Callers branch on `code`,
 * never on message text; `describeCiError` (in ops/) turns one into the sentence a user sees.
 */
export type CiErrorCode =
  /** No token, a token the service refused (401), or V3 `login_required`. */
  | 'unauthenticated'
  /** 404, or V2.1's 400 / empty 200 for a private resource the caller may not see. */
  | 'not_found'
  /** 403: the caller can see the resource but lacks a permission (V3 `insufficient_access`). */
  | 'insufficient_access'
  /** 403 `migrated_repository`: a write to a repository that moved off the old deployment. */
  | 'migrated_repository'
  /** 403 V3 `repo_migrated`: a migration was asked for a repository already migrating or migrated. */
  | 'already_migrated'
  /** 409, e.g. a user sync while one is running. */
  | 'conflict'
  /** 429; `retryAfterMs` says when to try again. */
  | 'rate_limited'
  /** 5xx, refused or reset connections, timeouts. */
  | 'unavailable'
  /** The service answered something our schema cannot accept; `fieldPath` names the bad field. */
  | 'invalid_response'
  /** Refused locally before any request was sent; `rule` names the rule. */
  | 'bad_request'
  /** Any other 4xx answer from the service (405, 422 ...), with its message. */
  | 'rejected';

export type UnavailableReason =
  | 'server_error'
  | 'timeout'
  | 'connect_timeout'
  | 'refused'
  | 'reset'
  | 'network';

export interface CiErrorData {
  deployment?: Deployment;
  method?: string;
  /** Request path without query string (never contains a token). */
  path?: string;
  status?: number;
  /** The kind of error as the service named it: V3 `error_type`, V2 `error.code` (`cant_cancel`), or a validation code. */
  errorType?: string;
  /** The service's own message (V3 `error_message`, V2 `error.message`, a restart's flash, `{message}`), when it sent one. */
  serviceMessage?: string;
  /** V3 `resource_type` of not_found / insufficient_access. */
  resourceType?: string;
  /** V3 `permission` of insufficient_access (e.g. `write`). */
  permission?: string;
  retryAfterMs?: number;
  reason?: UnavailableReason;
  /** invalid_response: dotted path of the first bad field, e.g. `builds.0.id`; rejected: the field a validation failure names. */
  fieldPath?: string;
  /** bad_request: the local rule that refused the call. */
  rule?: string;
}

export class CiError extends Error {
  override readonly name = 'CiError';
  readonly code: CiErrorCode;
  readonly data: CiErrorData;

  constructor(code: CiErrorCode, message: string, data: CiErrorData = {}, options?: { cause?: unknown }) {
    super(message, options);
    this.code = code;
    this.data = data;
  }

  get status(): number | undefined {
    return this.data.status;
  }

  /** Whether the same request may succeed if sent again later. */
  get transient(): boolean {
    return this.code === 'unavailable' || this.code === 'rate_limited';
  }
}

export function isCiError(error: unknown, code?: CiErrorCode): error is CiError {
  return error instanceof CiError && (code === undefined || error.code === code);
}

export function badRequest(rule: string): CiError {
  return new CiError('bad_request', `Request refused before sending: ${rule}`, { rule });
}
