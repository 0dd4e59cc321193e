/** V3 bodies: the repository representation (shape of travisapi_v3_repository_standard.json) and errors. */
import { fixture } from './fixtures.js';
import type { Reply } from './http.js';
import type { RepoRecord, UserRecord } from './records.js';
import type { FakeCiState } from './state.js';

const REPO_MIGRATED = fixture('travisapi_v3_error_repo_migrated.json');

export interface V3ErrorKind {
  status: number;
  defaultMessage: string;
  additionalAttributes: string[];
}

/** The error types this fake answers, as listed by the V3 home document. */
export const V3_ERRORS: Record<string, V3ErrorKind> = {
  login_required: { status: 403, defaultMessage: 'login required', additionalAttributes: [] },
  method_not_allowed: { status: 405, defaultMessage: 'method not allowed', additionalAttributes: [] },
  not_found: {
    status: 404,
    defaultMessage: 'resource not found (or insufficient access)',
    additionalAttributes: ['resource_type'],
  },
  insufficient_access: {
    status: 403,
    defaultMessage: 'forbidden',
    additionalAttributes: ['permission', 'resource_type'],
  },
  repo_migrated: { status: 403, defaultMessage: 'repository has been migrated', additionalAttributes: [] },
  wrong_params: { status: 400, defaultMessage: 'wrong parameters', additionalAttributes: [] },
  not_acceptable: { status: 406, defaultMessage: 'not acceptable', additionalAttributes: [] },
  unsupported_media_type: { status: 415, defaultMessage: 'unsupported media type', additionalAttributes: [] },
};

export function v3Error(type: string, message?: string, extra: Record<string, unknown> = {}): Reply {
  const kind = V3_ERRORS[type] ?? { status: 500, defaultMessage: type, additionalAttributes: [] };
  return {
    status: kind.status,
    json: { '@type': 'error', error_type: type, error_message: message ?? kind.defaultMessage, ...extra },
    contentType: 'application/json',
  };
}

export const loginRequired = (): Reply => v3Error('login_required');

/** Missing and invisible repositories look the same. */
export const repoNotFound = (): Reply =>
  v3Error('not_found', 'repository not found (or insufficient access)', { resource_type: 'repository' });

/** The fixture body, for a repository already migrating or migrated. */
export const repoMigrated = (): Reply => ({
  status: 403,
  json: REPO_MIGRATED,
  contentType: 'application/json',
});

export function minimalRepository(repo: RepoRecord): Record<string, unknown> {
  return {
    '@type': 'repository',
    '@href': `/repo/${repo.id}`,
    '@representation': 'minimal',
    id: repo.id,
    name: repo.name,
    slug: repo.slug,
  };
}

export function insufficientAccess(repo: RepoRecord, permission: string): Reply {
  return v3Error('insufficient_access', `operation requires ${permission} access to repository`, {
    resource_type: 'repository',
    permission,
    repository: minimalRepository(repo),
  });
}

function ownerOf(state: FakeCiState, repo: RepoRecord): Record<string, unknown> {
  const account = state.accounts.get(repo.ownerName);
  const user = state.getUser(repo.ownerName);
  const isOrg = account?.type === 'organization';
  const id = user?.id ?? account?.id ?? 1;
  return {
    id,
    login: repo.ownerName,
    '@type': isOrg ? 'organization' : 'user',
    ro_mode: true,
    '@href': isOrg ? `/org/${id}` : `/user/${id}`,
  };
}

/** The standard representation, with `@permissions` of the caller. */
export function repositoryV3(
  state: FakeCiState,
  repo: RepoRecord,
  user: UserRecord | undefined,
): Record<string, unknown> {
  const admin = state.can(user, repo, 'admin');
  const push = state.can(user, repo, 'push');
  return {
    '@type': 'repository',
    '@href': `/repo/${repo.id}`,
    '@representation': 'standard',
    '@permissions': {
      read: state.can(user, repo, 'read'),
      activate: admin,
      deactivate: admin,
      migrate: admin && repo.migrationStatus === null,
      star: push,
      unstar: push,
      create_request: push,
      create_cron: push,
      create_env_var: push,
      create_key_pair: admin,
      delete_key_pair: admin,
      check_scan_results: push,
      build_cancel: push,
      build_create: push,
      build_debug: admin,
      build_restart: push,
      cache_delete: admin,
      cache_view: push,
      settings_create: admin,
      settings_delete: admin,
      settings_read: push,
      settings_update: admin,
      log_delete: admin,
      log_view: state.can(user, repo, 'read'),
      admin,
    },
    id: repo.id,
    name: repo.name,
    slug: repo.slug,
    description: repo.description,
    github_id: repo.id,
    vcs_id: String(repo.id),
    vcs_type: 'GithubRepository',
    owner_name: repo.ownerName,
    vcs_name: repo.name,
    github_language: repo.githubLanguage ?? null,
    active: repo.active,
    private: repo.private,
    server_type: 'git',
    shared: false,
    scan_failed_at: null,
    owner: ownerOf(state, repo),
    default_branch: {
      '@type': 'branch',
      '@href': `/repo/${repo.id}/branch/${repo.defaultBranch}`,
      '@representation': 'minimal',
      name: repo.defaultBranch,
    },
    starred: false,
    active_on_org: null,
    managed_by_installation: false,
    migration_status: repo.migrationStatus,
    history_migration_status: null,
    config_validation: false,
    build_count: state.buildsOf(repo.id).length,
  };
}
