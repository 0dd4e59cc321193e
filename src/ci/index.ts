/**
 * The CI client's public API: the client and its sessions, typed errors, one function per operation
 * of the CI API and the shapes they answer. Other code imports from here; the core files (http.ts,
 * status.ts, transport-errors.ts, paths.ts) stay internal. Log text helpers: `./log-text/index.js`.
 */

export { getPermissions, listAccounts, listBroadcasts } from './accounts.js';
export {
  authorizePusherChannels,
  exchangeGithubToken,
  getCurrentUser,
  handshakeUrl,
  postMessageUrl,
} from './auth.js';
export {
  type BranchList,
  type BuildDetail,
  type BuildList,
  type BuildsQuery,
  cancelBuild,
  getBranch,
  getBuild,
  listBranches,
  listBuilds,
  listRepoBuilds,
  type RepoBuildsQuery,
  restartBuild,
} from './builds.js';
export { type CacheFilter, deleteCaches, listCaches } from './caches.js';
export {
  type AttemptInfo,
  CiClient,
  type CiClientOptions,
  CiSession,
  type Query,
  type QueryValue,
  type RequestBody,
  type RequestSpec,
} from './client.js';
export { CiError, type CiErrorCode, type CiErrorData, isCiError, type UnavailableReason } from './errors.js';
export type { HttpMethod } from './http.js';
export { MAX_REDIRECTS } from './http.js';
export { cancelJob, getJob, type JobDetail, type JobsQuery, listJobs, restartJob } from './jobs.js';
export { lintConfig, lintConfigYaml } from './lint.js';
export {
  getJobLogText,
  getLog,
  getLogParts,
  type LogPart,
  streamJobLog,
  streamJobLogs,
} from './logs.js';
export {
  getV3Repository,
  MIGRATION_STATUSES,
  type MigrationStatus,
  migrateRepository,
} from './migration.js';
export type { RepoKey } from './paths.js';
export {
  getRepo,
  getRepoKey,
  listHooks,
  listRepos,
  type RepoFilters,
  type ReposQuery,
  regenerateRepoKey,
  setHook,
  setHookById,
} from './repos.js';
export {
  getRequest,
  listRequests,
  REQUESTS_DEFAULT_LIMIT,
  REQUESTS_MAX_LIMIT,
  type RequestsQuery,
} from './requests.js';
export { getRoot, getServiceConfig } from './root.js';
export {
  type Account,
  type Broadcast,
  type Build,
  type BuildRequest,
  type Cache,
  type Commit,
  type EnvVar,
  FINISHED_STATES,
  type Hook,
  isFinished,
  type Job,
  KNOWN_STATES,
  type KnownState,
  type LintWarning,
  type Log,
  type Permissions,
  type RepoKey as RepoPublicKey,
  type RepoSettings,
  type Repository,
  type ServiceConfig,
  type SshKey,
  type State,
  type User,
  type V3Repository,
} from './schemas.js';
export {
  createEnvVar,
  deleteEnvVar,
  deleteSshKey,
  ENV_VAR_NAME,
  getEnvVar,
  getSettings,
  getSshKey,
  listEnvVars,
  type NewEnvVar,
  setSshKey,
  updateEnvVar,
  updateSettings,
} from './settings.js';
export { getUser, syncUser } from './users.js';
