/** Raw HTTP helpers for the fake's own tests (undici's `request`, no client of ours). */
import type { IncomingHttpHeaders } from 'node:http';
import { request } from 'undici';

export const MEDIA_TYPE = 'application/vnd.travis-ci.2.1+json';
export const USER_AGENT = 'fake-ci-tests/1.0.0';

export interface CallOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS';
  token?: string;
  /** Default: the V2.1 media type. `null` sends no Accept header. */
  accept?: string | null;
  /** Default: a valid `name/version`. `null` sends none. */
  userAgent?: string | null;
  /** Objects are sent as JSON. */
  body?: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface CallResult {
  status: number;
  headers: IncomingHttpHeaders;
  text: string;
  json: unknown;
}

export async function call(baseUrl: string, path: string, options: CallOptions = {}): Promise<CallResult> {
  const headers: Record<string, string> = { ...options.headers };
  const accept = options.accept === undefined ? MEDIA_TYPE : options.accept;
  if (accept !== null) headers.accept = accept;
  const userAgent = options.userAgent === undefined ? USER_AGENT : options.userAgent;
  if (userAgent !== null) headers['user-agent'] = userAgent;
  if (options.token !== undefined) headers.authorization = `token ${options.token}`;
  let body: string | undefined;
  if (typeof options.body === 'string') body = options.body;
  else if (options.body !== undefined) body = JSON.stringify(options.body);
  if (body !== undefined) headers['content-type'] = options.contentType ?? 'application/json';
  const response = await request(`${baseUrl}${path}`, { method: options.method ?? 'GET', headers, body });
  const text = await response.body.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: response.statusCode, headers: response.headers, text, json };
}

/** Narrows an unknown JSON value to an object for assertions. */
export function field(value: unknown, ...path: Array<string | number>): unknown {
  let current = value;
  for (const key of path) {
    if (typeof current !== 'object' || current === null) return undefined;
    current = (current as Record<string | number, unknown>)[key];
  }
  return current;
}
