import { z } from 'zod';
import { CiError, type CiErrorData } from './errors.js';

/** A V3 error body. Also matches V2's `{error_type, error_message}` (migrated_repository). */
const v3ErrorSchema = z.looseObject({
  error_type: z.string(),
  error_message: z.string().optional(),
  resource_type: z.string().optional(),
  permission: z.string().optional(),
});

/** V2 answers some errors as `{error: "..."}` or `{error: {message, code}}` (cancel: `cant_cancel`). */
const v2ErrorSchema = z.looseObject({
  error: z.union([z.string(), z.looseObject({ message: z.string(), code: z.string().optional() })]),
});

/** Restart answers `{result: false, flash: [{error: "..."}]}` (400 while running, 403 without rights). */
const flashSchema = z.looseObject({
  flash: z.array(z.record(z.string(), z.unknown())).min(1),
});

/** `{message}` (409 on sync) and validation failures `{message, errors: [{field, code}]}` (422). */
const messageSchema = z.looseObject({
  message: z.string(),
  errors: z.array(z.looseObject({ field: z.string().optional(), code: z.string().optional() })).optional(),
});

export interface ParsedErrorBody {
  errorType?: string;
  serviceMessage?: string;
  resourceType?: string;
  permission?: string;
  /** The field a validation failure names. */
  fieldPath?: string;
}

/** The explanation in an error body, whichever of the service's shapes it has. */
export function parseErrorBody(body: string): ParsedErrorBody {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    const text = body.trim();
    return text && text.length < 500 && !text.startsWith('<') ? { serviceMessage: text } : {};
  }
  const v3 = v3ErrorSchema.safeParse(json);
  if (v3.success) {
    return {
      errorType: v3.data.error_type,
      serviceMessage: v3.data.error_message,
      resourceType: v3.data.resource_type,
      permission: v3.data.permission,
    };
  }
  const v2 = v2ErrorSchema.safeParse(json);
  if (v2.success) {
    const { error } = v2.data;
    return typeof error === 'string'
      ? { serviceMessage: error }
      : { serviceMessage: error.message, errorType: error.code };
  }
  const flash = flashSchema.safeParse(json);
  if (flash.success) {
    // Each entry is `{error: text}`, `{notice: text}` or `{warning: text}`; errors first.
    const entries = flash.data.flash.flatMap((entry) => Object.entries(entry));
    const text = (entries.find(([kind]) => kind === 'error') ?? entries[0])?.[1];
    return typeof text === 'string' ? { serviceMessage: text } : {};
  }
  const message = messageSchema.safeParse(json);
  if (message.success) {
    const [first] = message.data.errors ?? [];
    const problems = (message.data.errors ?? [])
      .map((e) => [e.field, e.code].filter(Boolean).join(' '))
      .filter((text) => text !== '');
    return {
      serviceMessage:
        problems.length > 0 ? `${message.data.message} (${problems.join(', ')})` : message.data.message,
      errorType: first?.code,
      fieldPath: first?.field,
    };
  }
  return {};
}

/** `Retry-After` is either seconds or an HTTP date. */
export function parseRetryAfter(value: string | undefined, now: number): number | undefined {
  if (!value) return undefined;
  const trimmed = value.trim();
  if (/^\d+(\.\d+)?$/.test(trimmed)) return Math.round(Number(trimmed) * 1000);
  const date = Date.parse(trimmed);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

export interface FailedResponse {
  status: number;
  body: string;
  retryAfter: string | undefined;
  /** V2.1 answers 400 to a read of a private resource the caller may not see. */
  isRead: boolean;
}

/** Turns a non-2xx answer into the typed error that explains it. */
export function errorFromResponse(response: FailedResponse, base: CiErrorData, now = Date.now()): CiError {
  const { status } = response;
  const parsed = parseErrorBody(response.body);
  const data: CiErrorData = { ...base, status, ...definedOnly(parsed) };
  const said = parsed.serviceMessage ? `: ${parsed.serviceMessage}` : '';

  switch (parsed.errorType) {
    case 'login_required':
      return new CiError('unauthenticated', `The CI service wants a valid token${said}`, data);
    case 'migrated_repository':
      return new CiError('migrated_repository', `The repository was migrated${said}`, data);
    case 'repo_migrated':
      return new CiError('already_migrated', `The repository is already migrating or migrated${said}`, data);
    case 'insufficient_access':
      return new CiError('insufficient_access', `Insufficient access${said}`, data);
    case 'not_found':
      return new CiError('not_found', `Not found${said}`, data);
  }

  if (status === 401) return new CiError('unauthenticated', `The CI service refused the token${said}`, data);
  if (status === 403) return new CiError('insufficient_access', `Forbidden${said}`, data);
  if (status === 404) return new CiError('not_found', `Not found${said}`, data);
  if (status === 400 && response.isRead) {
    return new CiError('not_found', `Not found or no access${said}`, data);
  }
  if (status === 409) return new CiError('conflict', `Conflict${said}`, data);
  if (status === 429) {
    const retryAfterMs = parseRetryAfter(response.retryAfter, now);
    return new CiError('rate_limited', `Rate limited by the CI service${said}`, { ...data, retryAfterMs });
  }
  if (status >= 500) {
    return new CiError('unavailable', `The CI service answered ${status}${said}`, {
      ...data,
      reason: 'server_error',
      retryAfterMs: parseRetryAfter(response.retryAfter, now),
    });
  }
  return new CiError('rejected', `The CI service refused the request (${status})${said}`, data);
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
