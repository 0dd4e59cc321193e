/**
 * A small route table for the V2.1 API. Path templates: `:repo` is a repository id or an
 * `owner/name` slug with the slash kept (spec's `{+repository.slug}`); any other `:name` is one path
 * segment. A trailing slash is optional, as on the real service (`/users/`, `/repos/`).
 */
import { type AcceptKind, type Ctx, halt, type Reply, v2Error } from './http.js';

export type Method = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Route {
  method: Method;
  pattern: RegExp;
  /** Representations the route can answer, in the order the Accept header is read against. */
  accepts: readonly AcceptKind[];
  /** Marked Required in the spec: without a token the answer is 401 before anything else. */
  required: boolean;
  handle: (ctx: Ctx) => Reply;
}

/** Route options of an operation the spec marks Required. */
export const REQUIRED = { required: true } as const;

const JSON_KINDS: readonly AcceptKind[] = ['json', 'chunked'];

/**
 * `plainText`: the route also takes `Accept: text/plain` (the plain-text log routes).
 * `required`: the operation needs a token.
 */
export function route(
  method: Method,
  template: string,
  handle: (ctx: Ctx) => Reply,
  options: { plainText?: boolean; required?: boolean } = {},
): Route {
  const source = template
    .split('/')
    .map((segment) => {
      if (segment === ':repo') return '(?<repo>\\d+|[^/]+/[^/]+)';
      if (segment.startsWith(':')) return `(?<${segment.slice(1)}>[^/]+)`;
      return segment.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  const pattern = new RegExp(`^${source.replace(/\/$/, '')}/?$`);
  const accepts: readonly AcceptKind[] = options.plainText ? [...JSON_KINDS, 'text'] : JSON_KINDS;
  return { method, pattern, accepts, required: options.required ?? false, handle };
}

export interface RouteMatch {
  route: Route;
  params: Record<string, string>;
}

/** HEAD is served by the GET route. Params are percent-decoded; a bad escape matches nothing. */
export function matchRoute(routes: readonly Route[], method: string, path: string): RouteMatch | undefined {
  const wanted = method === 'HEAD' ? 'GET' : method;
  for (const candidate of routes) {
    if (candidate.method !== wanted) continue;
    const match = candidate.pattern.exec(path);
    if (!match) continue;
    const params: Record<string, string> = {};
    try {
      for (const [name, value] of Object.entries(match.groups ?? {}))
        params[name] = decodeURIComponent(value);
    } catch {
      return undefined;
    }
    return { route: candidate, params };
  }
  return undefined;
}

interface MediaRange {
  type: string;
  params: Map<string, string>;
}

function parseAccept(accept: string): MediaRange[] {
  return accept
    .split(',')
    .map((range) => {
      const [type = '', ...rawParams] = range.split(';');
      const params = new Map<string, string>();
      for (const param of rawParams) {
        const [name = '', value = ''] = param.split('=');
        params.set(name.trim().toLowerCase(), value.trim().replace(/^"|"$/g, '').toLowerCase());
      }
      return { type: type.trim().toLowerCase(), params };
    })
    .filter((range) => range.type !== '');
}

/**
 * The representation the Accept header asks for among those the route offers: the configured media
 * type (with `chunked=true` for chunked logs) or, on plain-text routes, `text/plain`. Nothing else is
 * taken (no wildcards): 406 with a JSON error naming what was expected.
 */
export function negotiate(accept: string | undefined, route: Route, mediaType: string): AcceptKind {
  for (const range of parseAccept(accept ?? '')) {
    let kind: AcceptKind | undefined;
    if (range.type === mediaType.toLowerCase())
      kind = range.params.get('chunked') === 'true' ? 'chunked' : 'json';
    else if (range.type === 'text/plain') kind = 'text';
    if (kind && route.accepts.includes(kind)) return kind;
  }
  const wanted = route.accepts.includes('text') ? `${mediaType} or text/plain` : mediaType;
  const got = accept === undefined ? 'no Accept header' : `Accept: ${accept}`;
  return halt(v2Error(406, 'not_acceptable', `This API answers ${wanted} (got ${got}).`));
}
