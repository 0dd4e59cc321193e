/** The request context handed to every route, the reply shape and small parsing helpers. */
import type { IncomingHttpHeaders } from 'node:http';
import type { UserRecord } from './records.js';
import type { FakeCiState } from './state.js';
import type { ResolvedOptions } from './types.js';

export interface Reply {
  status: number;
  json?: unknown;
  text?: string;
  contentType?: string;
  headers?: Record<string, string>;
}

/** Thrown by helpers to end a request early with a reply. */
export class Halt extends Error {
  constructor(readonly reply: Reply) {
    super(`halt ${reply.status}`);
  }
}

export type AcceptKind = 'json' | 'chunked' | 'text';

export interface Ctx {
  method: string;
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
  /** Decoded path parameters. */
  params: Record<string, string>;
  state: FakeCiState;
  options: ResolvedOptions;
  /** The caller named by a valid `Authorization: token …`, if any. */
  user: UserRecord | undefined;
  /** What the Accept header chose among the kinds the route offers. */
  accept: AcceptKind;
  archiveUrl: string;
}

export function json(status: number, body: unknown): Reply {
  return { status, json: body };
}

export function text(status: number, body: string): Reply {
  return { status, text: body, contentType: 'text/plain; charset=utf-8' };
}

/** The V2 error body: `{error_type, error_message}` (the shape of the migrated_repository error). */
export function v2Error(status: number, errorType: string, message: string): Reply {
  return json(status, { error_type: errorType, error_message: message });
}

export function halt(reply: Reply): never {
  throw new Halt(reply);
}

export const notFound = (): Reply => v2Error(404, 'not_found', 'The requested resource could not be found.');

export function header(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name.toLowerCase()];
  return Array.isArray(value) ? value.join(', ') : value;
}

export function mediaTypeOf(contentType: string | undefined): string {
  return (contentType ?? '').split(';')[0]?.trim().toLowerCase() ?? '';
}

/** The body as an object: JSON or a form (`a[b]=1`, `a[]=1`); other or empty bodies give `{}`. */
export function bodyObject(ctx: Ctx): Record<string, unknown> {
  const type = mediaTypeOf(header(ctx.headers, 'content-type'));
  if (ctx.body.trim() === '') return {};
  if (type === 'application/json') {
    let parsed: unknown;
    try {
      parsed = JSON.parse(ctx.body);
    } catch {
      halt(v2Error(400, 'invalid_json', 'The request body is not valid JSON.'));
    }
    return asRecord(parsed) ?? halt(v2Error(400, 'invalid_json', 'The request body must be a JSON object.'));
  }
  if (type === 'application/x-www-form-urlencoded') return parseForm(new URLSearchParams(ctx.body));
  return {};
}

export function parseForm(form: URLSearchParams): Record<string, unknown> {
  const result: Record<string, unknown> = {};
  for (const [key, value] of form) {
    const match = /^([^[\]]+)(?:\[([^[\]]*)\])?$/.exec(key);
    const outer = match?.[1];
    if (!outer) continue;
    const inner = match?.[2];
    if (inner === undefined) {
      result[outer] = value;
    } else if (inner === '') {
      const list = Array.isArray(result[outer]) ? (result[outer] as unknown[]) : [];
      result[outer] = [...list, value];
    } else {
      result[outer] = { ...asRecord(result[outer]), [inner]: value };
    }
  }
  return result;
}

export function asRecord(value: unknown): Record<string, unknown> | undefined {
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : undefined;
}

export function asString(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}

/** true/false, or the strings a form sends. */
export function asBool(value: unknown): boolean | undefined {
  if (typeof value === 'boolean') return value;
  if (value === 'true') return true;
  if (value === 'false') return false;
  return undefined;
}

/** `name[]=1&name[]=2` or `name=1,2`. */
export function queryList(query: URLSearchParams, name: string): string[] | undefined {
  const values = [...query.getAll(`${name}[]`), ...query.getAll(name)].flatMap((v) => v.split(','));
  const cleaned = values.map((v) => v.trim()).filter((v) => v !== '');
  return cleaned.length > 0 ? cleaned : undefined;
}

export function queryInt(query: URLSearchParams, name: string): number | undefined {
  const raw = query.get(name);
  if (raw === null || raw === '') return undefined;
  if (!/^\d+$/.test(raw)) halt(v2Error(400, 'invalid_parameter', `${name} must be a number`));
  return Number(raw);
}

export function idList(values: string[] | undefined, name: string): number[] | undefined {
  if (values === undefined) return undefined;
  return values.map((v) =>
    /^\d+$/.test(v) ? Number(v) : halt(v2Error(400, 'invalid_parameter', `${name} must be numbers`)),
  );
}

export function pathId(ctx: Ctx, name = 'id'): number {
  const raw = ctx.params[name] ?? '';
  return /^\d+$/.test(raw) ? Number(raw) : halt(notFound());
}
