/**
 * The V3 corner of the API, selected by the version header set to 3: the home document, a repository
 * by id or percent-encoded slug, and its migration. V3 wants `Accept: application/json` and, on POST,
 * `Content-Type: application/json`; its errors carry `@type: error`.
 */
import type { IncomingHttpHeaders } from 'node:http';
import type { TokenLookup } from './auth.js';
import { header, mediaTypeOf, type Reply } from './http.js';
import type { RepoRecord, UserRecord } from './records.js';
import type { FakeCiState } from './state.js';
import type { ResolvedOptions } from './types.js';
import {
  insufficientAccess,
  loginRequired,
  repoMigrated,
  repoNotFound,
  repositoryV3,
  V3_ERRORS,
  v3Error,
} from './v3-shapes.js';

export interface V3Request {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  state: FakeCiState;
  options: ResolvedOptions;
  token: TokenLookup;
}

/** Asking again while these hold answers repo_migrated. */
const MIGRATED_STATUSES = new Set(['migrating', 'migrated', 'success']);

const ok = (status: number, body: unknown): Reply => ({
  status,
  json: body,
  contentType: 'application/json',
});

export function handleV3(request: V3Request): Reply {
  const { method, path, headers, state } = request;
  const accepts = (header(headers, 'accept') ?? '').split(',').map((range) => mediaTypeOf(range));
  if (!accepts.includes('application/json'))
    return v3Error('not_acceptable', 'Accept must be application/json');
  if (method === 'POST' && mediaTypeOf(header(headers, 'content-type')) !== 'application/json') {
    return v3Error('unsupported_media_type', 'Content-Type must be application/json');
  }
  if (request.token.kind === 'invalid') return loginRequired();
  const user = request.token.kind === 'valid' ? request.token.user : undefined;
  const wanted = method === 'HEAD' ? 'GET' : method;

  if (path === '/' || path === '')
    return wanted === 'GET' ? ok(200, home(request)) : v3Error('method_not_allowed');
  const find = /^\/repo\/([^/]+)\/?$/.exec(path);
  if (find) return wanted === 'GET' ? findRepository(state, find[1], user) : v3Error('method_not_allowed');
  const migrate = /^\/repo\/([^/]+)\/migrate\/?$/.exec(path);
  if (migrate)
    return wanted === 'POST' ? migrateRepository(state, migrate[1], user) : v3Error('method_not_allowed');
  return v3Error('not_found');
}

/** By id, or by slug with its slash percent-encoded (`rails%2Frails`); a raw slash never gets here. */
function lookUp(state: FakeCiState, rawRef: string | undefined): RepoRecord | undefined {
  let ref: string;
  try {
    ref = decodeURIComponent(rawRef ?? '');
  } catch {
    return undefined;
  }
  return /^\d+$/.test(ref) ? state.getRepo(Number(ref)) : state.getRepo(ref);
}

function findRepository(state: FakeCiState, rawRef: string | undefined, user: UserRecord | undefined): Reply {
  const repo = lookUp(state, rawRef);
  if (!repo || !state.can(user, repo, 'read')) return repoNotFound();
  return ok(200, repositoryV3(state, repo, user));
}

/** 202 with the repository, whose migration_status then follows its plan over time. */
function migrateRepository(
  state: FakeCiState,
  rawRef: string | undefined,
  user: UserRecord | undefined,
): Reply {
  if (!user) return loginRequired();
  const repo = lookUp(state, rawRef);
  if (!repo || !state.can(user, repo, 'read')) return repoNotFound();
  if (!state.can(user, repo, 'admin')) return insufficientAccess(repo, 'migrate');
  if (repo.migrationStatus !== null && MIGRATED_STATUSES.has(repo.migrationStatus)) return repoMigrated();
  state.startMigration(repo);
  return ok(202, repositoryV3(state, repo, user));
}

function home(request: V3Request): Record<string, unknown> {
  const { secret: _secret, ...pusher } = request.options.pusher;
  const errors = Object.fromEntries(
    Object.entries(V3_ERRORS).map(([type, kind]) => [
      type,
      {
        status: kind.status,
        default_message: kind.defaultMessage,
        additional_attributes: kind.additionalAttributes,
      },
    ]),
  );
  const template = (requestMethod: string, uriTemplate: string) => ({
    '@type': 'template',
    request_method: requestMethod,
    uri_template: uriTemplate,
  });
  return {
    '@type': 'home',
    '@href': '/',
    config: { pusher, github: { api_url: 'https://api.github.com' } },
    errors,
    resources: {
      repository: {
        '@type': 'resource',
        actions: {
          find: [template('GET', '/repo/{repository.id}'), template('GET', '/repo/{repository.slug}')],
          migrate: [
            template('POST', '/repo/{repository.id}/migrate'),
            template('POST', '/repo/{repository.slug}/migrate'),
          ],
        },
      },
    },
  };
}
