/**
 * V2.1 JSON shapes of the records, with the fixtures' field order and quirks (`active` absent or a
 * string, `github_language` absent, accounts without `id`).
 */
import type {
  AccountRecord,
  BuildRecord,
  CacheRecord,
  CommitRecord,
  Deployment,
  EnvVarRecord,
  JobRecord,
  LogRecord,
  RepoRecord,
  RequestRecord,
  UserRecord,
} from './records.js';

export type Json = Record<string, unknown>;

export function repoJson(repo: RepoRecord): Json {
  const json: Json = {
    id: repo.id,
    slug: repo.slug,
    description: repo.description,
    last_build_id: repo.lastBuildId,
    last_build_number: repo.lastBuildNumber,
    last_build_state: repo.lastBuildState,
    last_build_duration: repo.lastBuildDuration,
    last_build_language: null,
    last_build_started_at: repo.lastBuildStartedAt,
    last_build_finished_at: repo.lastBuildFinishedAt,
  };
  if (repo.githubLanguage !== undefined) json.github_language = repo.githubLanguage;
  if (repo.activeField === 'boolean') json.active = repo.active;
  if (repo.activeField === 'string') json.active = String(repo.active);
  return json;
}

export function commitJson(commit: CommitRecord): Json {
  return {
    id: commit.id,
    sha: commit.sha,
    branch: commit.branch,
    message: commit.message,
    committed_at: commit.committedAt,
    author_name: commit.authorName,
    author_email: commit.authorEmail,
    committer_name: commit.committerName,
    committer_email: commit.committerEmail,
    compare_url: commit.compareUrl,
    ...(commit.tag === null ? {} : { tag: commit.tag }),
    ...(commit.pullRequestNumber === null ? {} : { pull_request_number: commit.pullRequestNumber }),
  };
}

export function buildJson(build: BuildRecord): Json {
  const pullRequest = build.eventType === 'pull_request';
  return {
    id: build.id,
    repository_id: build.repositoryId,
    commit_id: build.commitId,
    number: build.number,
    event_type: build.eventType,
    pull_request: pullRequest,
    // Only pull-request builds carry these (spec section 2; the fixtures have none).
    ...(pullRequest
      ? { pull_request_title: build.pullRequestTitle, pull_request_number: build.pullRequestNumber }
      : {}),
    config: build.config,
    state: build.state,
    started_at: build.startedAt,
    finished_at: build.finishedAt,
    duration: build.duration,
    job_ids: [...build.jobIds],
  };
}

/** A job as listed next to its build; `repositorySlug` is added by GET /jobs and GET /jobs/{id}. */
export function jobJson(job: JobRecord, repositorySlug?: string): Json {
  return {
    id: job.id,
    repository_id: job.repositoryId,
    ...(repositorySlug === undefined ? {} : { repository_slug: repositorySlug }),
    build_id: job.buildId,
    commit_id: job.commitId,
    log_id: job.logId,
    number: job.number,
    config: job.config,
    state: job.state,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    queue: job.queue,
    allow_failure: job.allowFailure,
    tags: job.tags,
  };
}

export function userJson(user: UserRecord): Json {
  return {
    id: user.id,
    name: user.name,
    login: user.login,
    email: user.email,
    gravatar_id: user.gravatarId,
    locale: user.locale,
    is_syncing: user.isSyncing,
    synced_at: user.syncedAt,
    correct_scopes: user.correctScopes,
    created_at: user.createdAt,
    channels: [`private-user-${user.id}`],
  };
}

export function requestJson(request: RequestRecord): Json {
  return {
    id: request.id,
    repository_id: request.repositoryId,
    commit_id: request.commitId,
    created_at: request.createdAt,
    owner_id: request.ownerId,
    owner_type: request.ownerType,
    event_type: request.eventType,
    base_commit: request.baseCommit,
    head_commit: request.headCommit,
    result: request.result,
    message: request.message,
    pull_request: request.pullRequest,
    pull_request_number: request.pullRequestNumber,
    pull_request_title: request.pullRequestTitle,
    branch: request.branch,
    tag: request.tag,
  };
}

export function cacheJson(cache: CacheRecord): Json {
  return {
    repository_id: cache.repositoryId,
    size: cache.size,
    slug: cache.slug,
    branch: cache.branch,
    last_modified: cache.lastModified,
  };
}

/** The value is shown only for public variables. */
export function envVarJson(envVar: EnvVarRecord): Json {
  return {
    id: envVar.id,
    name: envVar.name,
    ...(envVar.public ? { value: envVar.value } : {}),
    public: envVar.public,
    repository_id: envVar.repositoryId,
  };
}

export function accountJson(account: AccountRecord, reposCount: number, deployment: Deployment): Json {
  return {
    ...(account.id === undefined ? {} : { id: account.id }),
    name: account.name,
    login: account.login,
    type: account.type,
    repos_count: reposCount,
    // Only the private/hosted deployment knows about subscriptions.
    ...(deployment === 'com' ? { subscribed: account.subscribed } : {}),
  };
}

export function hookJson(repo: RepoRecord): Json {
  return {
    id: repo.id,
    name: repo.name,
    owner_name: repo.ownerName,
    description: repo.description,
    active: repo.active,
    private: repo.private,
    admin: true,
  };
}

export function logBody(log: LogRecord): string {
  return [...log.parts]
    .sort((a, b) => a.number - b.number)
    .map((part) => part.content)
    .join('');
}

/**
 * `{log: {id, job_id, type, body}}`, or with `chunked` the parts instead of the body. An archived log
 * has lost its parts: the chunked form then holds the whole text as part 0 (as V3 shows it).
 */
export function logJson(log: LogRecord, chunked: boolean): Json {
  const base = { id: log.id, job_id: log.jobId, type: 'Log' };
  if (!chunked) return { log: { ...base, body: logBody(log) } };
  const parts = log.archived
    ? [{ number: 0, content: logBody(log), final: true }]
    : [...log.parts].sort((a, b) => a.number - b.number).map((p) => ({ ...p }));
  return { log: { ...base, parts } };
}
