/**
 * The records the fake keeps in memory. Field names follow TypeScript habits; `serialize.ts` turns
 * them into the snake_case JSON shapes of the real service.
 */

/** Build and job states the real service uses; any other string is allowed so tests can send oddities. */
export type CiState =
  | 'created'
  | 'received'
  | 'queued'
  | 'started'
  | 'passed'
  | 'failed'
  | 'errored'
  | 'canceled'
  | 'ready'
  | (string & {});

export const FINISHED_STATES: ReadonlySet<string> = new Set(['passed', 'failed', 'errored', 'canceled']);

export function isFinished(state: string): boolean {
  return FINISHED_STATES.has(state);
}

export type Permission = 'admin' | 'push' | 'pull';
export type EventType = 'push' | 'pull_request' | 'cron' | 'api';
export type MigrationStatus = 'queued' | 'migrating' | 'migrated' | 'success' | 'failure';
export type Deployment = 'com' | 'org' | 'enterprise';

export interface UserRecord {
  id: number;
  login: string;
  name: string;
  email: string;
  gravatarId: string;
  locale: string;
  /** Every API token of the user; the first is what POST /auth/github hands out. */
  tokens: string[];
  isSyncing: boolean;
  syncedAt: string | null;
  correctScopes: boolean;
  createdAt: string;
}

export interface RepoRecord {
  id: number;
  slug: string;
  ownerName: string;
  name: string;
  description: string | null;
  private: boolean;
  active: boolean;
  /** How `active` appears in V2 JSON: fixtures omit it or send it as a string. */
  activeField: 'boolean' | 'string' | 'absent';
  /** `undefined` omits the field (the repos-list fixture has none). */
  githubLanguage: string | null | undefined;
  defaultBranch: string;
  lastBuildId: number | null;
  lastBuildNumber: string | null;
  lastBuildState: string | null;
  lastBuildDuration: number | null;
  lastBuildStartedAt: string | null;
  lastBuildFinishedAt: string | null;
  /** Moved to the other deployment; on deployment 'org' every write answers 403 migrated_repository. */
  migrated: boolean;
  migrationStatus: MigrationStatus | null;
  migrationPlan: MigrationStatus[];
  /** Overrides the fake's default step length of the migration timeline. */
  migrationStepMs: number | undefined;
  createdAt: string;
}

export interface CommitRecord {
  id: number;
  repositoryId: number;
  sha: string;
  branch: string;
  tag: string | null;
  message: string;
  committedAt: string;
  authorName: string;
  authorEmail: string;
  committerName: string;
  committerEmail: string;
  compareUrl: string;
  pullRequestNumber: number | null;
}

/** Free-form build or job configuration (`.travis.yml` after parsing). */
export type CiConfig = Record<string, unknown>;

export interface BuildRecord {
  id: number;
  repositoryId: number;
  commitId: number;
  requestId: number | null;
  number: string;
  eventType: EventType;
  pullRequestTitle: string | null;
  pullRequestNumber: number | null;
  config: CiConfig;
  state: CiState;
  startedAt: string | null;
  finishedAt: string | null;
  duration: number | null;
  jobIds: number[];
}

export interface JobRecord {
  id: number;
  buildId: number;
  repositoryId: number;
  commitId: number;
  logId: number;
  number: string;
  config: CiConfig;
  state: CiState;
  startedAt: string | null;
  finishedAt: string | null;
  queue: string;
  allowFailure: boolean;
  tags: string;
}

export interface LogPart {
  number: number;
  content: string;
  final: boolean;
}

export interface LogRecord {
  id: number;
  jobId: number;
  parts: LogPart[];
  /** Archived logs are served only by the archive server; the API redirects plain-text reads there. */
  archived: boolean;
}

export interface RequestRecord {
  id: number;
  repositoryId: number;
  commitId: number;
  createdAt: string;
  ownerId: number;
  ownerType: 'User' | 'Organization';
  eventType: EventType;
  baseCommit: string | null;
  headCommit: string | null;
  result: 'accepted' | 'rejected' | null;
  message: string | null;
  pullRequest: boolean;
  pullRequestNumber: number | null;
  pullRequestTitle: string | null;
  branch: string;
  tag: string | null;
}

export interface CacheRecord {
  repositoryId: number;
  branch: string;
  slug: string;
  size: number;
  lastModified: string;
}

export interface EnvVarRecord {
  id: string;
  repositoryId: number;
  name: string;
  value: string;
  public: boolean;
}

export interface SshKeyRecord {
  repositoryId: number;
  description: string;
  fingerprint: string;
  /** The write-only private key, as sent. */
  value: string;
}

export interface RepoKeyRecord {
  publicKeyPem: string;
  /** `null` for the fixture key of rails/rails, whose private half is unknown. */
  privateKeyPem: string | null;
  fingerprint: string;
}

export interface AccountRecord {
  /** `undefined` omits the field, as the accounts fixture does. */
  id: number | undefined;
  login: string;
  name: string;
  type: 'user' | 'organization';
  /** `undefined`: counted from the repositories whose owner is this login. */
  reposCount: number | undefined;
  subscribed: boolean;
}

export interface BroadcastRecord {
  id: number;
  message: string;
}

export type SettingValue = boolean | number;
export type SettingsRecord = Record<string, SettingValue>;

export const DEFAULT_SETTINGS: Readonly<SettingsRecord> = {
  builds_only_with_travis_yml: false,
  build_pushes: true,
  build_pull_requests: true,
  maximum_number_of_builds: 0,
  auto_cancel_pushes: false,
  auto_cancel_pull_requests: false,
};
