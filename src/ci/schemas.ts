import { z } from 'zod';

/**
 * Answers of the CI service, after the spec's field tables. Tolerant where the real service
 * differs: unknown fields are kept (looseObject), timestamps may be null or missing, `active` may be
 * a boolean or a string, states are any string (known ones are typed below, unknown ones kept),
 * numbers the spec calls strings may come as numbers, and V3 `@` metadata is allowed.
 */

export const KNOWN_STATES = [
  'created',
  'received',
  'queued',
  'ready',
  'started',
  'passed',
  'failed',
  'errored',
  'canceled',
] as const;
export type KnownState = (typeof KNOWN_STATES)[number];
/** A build or job state: one of the known ones, or whatever new string the service sends. */
export type State = KnownState | (string & {});

export const FINISHED_STATES: ReadonlySet<string> = new Set(['passed', 'failed', 'errored', 'canceled']);
export const isFinished = (state: string): boolean => FINISHED_STATES.has(state);

const id = z.number().int();
const timestamp = z.string().nullable().optional();
const text = z.string().nullable().optional();
/** Build and job numbers are strings in the spec; accept numbers too. */
const numberString = z.union([z.string(), z.number()]).transform(String);
const optionalNumberString = z
  .union([z.string(), z.number()])
  .nullable()
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : String(v)));
/** The sample body shows `active` as a string. */
const booleanLike = z
  .union([z.boolean(), z.string(), z.null()])
  .optional()
  .transform((v) => (v === null || v === undefined ? undefined : v === true || v === 'true'));
const state = z.string() as z.ZodType<State>;

export const accountSchema = z.looseObject({
  id: id.optional(),
  name: text,
  login: z.string(),
  type: z.string(),
  repos_count: z.number().int().nullable().optional(),
  subscribed: z.boolean().optional(),
});
export type Account = z.output<typeof accountSchema>;

export const broadcastSchema = z.looseObject({ id, message: z.string() });
export type Broadcast = z.output<typeof broadcastSchema>;

export const commitSchema = z.looseObject({
  id,
  sha: z.string(),
  branch: text,
  tag: text,
  message: text,
  committed_at: timestamp,
  author_name: text,
  author_email: text,
  committer_name: text,
  committer_email: text,
  compare_url: text,
  pull_request_number: z.number().int().nullable().optional(),
});
export type Commit = z.output<typeof commitSchema>;

/** The commit sideloaded next to a build, job or request; the service sends `null` when it has none. */
export const sideloadedCommitSchema = commitSchema.nullish().transform((commit) => commit ?? undefined);

export const buildSchema = z.looseObject({
  id,
  repository_id: id,
  commit_id: id.nullable().optional(),
  number: numberString,
  pull_request: z.boolean().optional(),
  pull_request_title: text,
  pull_request_number: optionalNumberString,
  event_type: z.string().optional(),
  config: z.record(z.string(), z.unknown()).optional(),
  state,
  started_at: timestamp,
  finished_at: timestamp,
  duration: z.number().nullable().optional(),
  job_ids: z.array(id).optional().default([]),
});
export type Build = z.output<typeof buildSchema>;

export const jobSchema = z.looseObject({
  id,
  build_id: id,
  repository_id: id,
  repository_slug: z.string().optional(),
  commit_id: id.nullable().optional(),
  log_id: id.nullable().optional(),
  number: numberString,
  config: z.record(z.string(), z.unknown()).optional(),
  state,
  started_at: timestamp,
  finished_at: timestamp,
  queue: text,
  allow_failure: z.boolean().optional().default(false),
});
export type Job = z.output<typeof jobSchema>;

export const cacheSchema = z.looseObject({
  repository_id: id,
  size: z.number(),
  slug: z.string(),
  branch: z.string(),
  last_modified: timestamp,
});
export type Cache = z.output<typeof cacheSchema>;

export const repositorySchema = z.looseObject({
  id,
  slug: z.string(),
  description: text,
  last_build_id: id.nullable().optional(),
  last_build_number: optionalNumberString,
  last_build_state: z.string().nullable().optional(),
  last_build_duration: z.number().nullable().optional(),
  last_build_started_at: timestamp,
  last_build_finished_at: timestamp,
  active: booleanLike,
});
export type Repository = z.output<typeof repositorySchema>;

/** A hook has the fields of a repository; its id is the repository id. */
export const hookSchema = z.looseObject({
  id,
  name: text,
  owner_name: text,
  description: text,
  active: booleanLike,
  private: z.boolean().optional(),
  admin: z.boolean().optional(),
});
export type Hook = z.output<typeof hookSchema>;

export const requestSchema = z.looseObject({
  id,
  commit_id: id.nullable().optional(),
  repository_id: id,
  created_at: timestamp,
  owner_id: id.nullable().optional(),
  owner_type: text,
  event_type: text,
  base_commit: text,
  head_commit: text,
  result: z.string().nullable().optional(),
  message: text,
  pull_request: z.boolean().optional(),
  pull_request_number: z.number().int().nullable().optional(),
  pull_request_title: text,
  branch: text,
  tag: text,
});
export type BuildRequest = z.output<typeof requestSchema>;

export const settingsSchema = z.record(z.string(), z.union([z.boolean(), z.number(), z.string(), z.null()]));
export type RepoSettings = z.output<typeof settingsSchema>;

export const envVarSchema = z.looseObject({
  id: z.string(),
  repository_id: id.optional(),
  name: z.string(),
  /** Present only when `public` is true. */
  value: z.string().nullable().optional(),
  public: z.boolean(),
});
export type EnvVar = z.output<typeof envVarSchema>;

export const sshKeySchema = z.looseObject({
  id: id.optional(),
  description: text,
  fingerprint: text,
});
export type SshKey = z.output<typeof sshKeySchema>;

export const repoKeySchema = z.looseObject({
  key: z.string(),
  fingerprint: z.string().nullable().optional(),
});
export type RepoKey = z.output<typeof repoKeySchema>;

export const userSchema = z.looseObject({
  id,
  login: z.string(),
  name: text,
  email: text,
  gravatar_id: text,
  is_syncing: z.boolean().optional(),
  synced_at: timestamp,
  correct_scopes: z.boolean().optional(),
  channels: z.array(z.string()).optional().default([]),
  created_at: timestamp,
});
export type User = z.output<typeof userSchema>;

export const permissionsSchema = z.looseObject({
  permissions: z.array(id).default([]),
  admin: z.array(id).default([]),
  pull: z.array(id).default([]),
  push: z.array(id).default([]),
});
export type Permissions = z.output<typeof permissionsSchema>;

export const lintWarningSchema = z.looseObject({
  key: z.array(z.union([z.string(), z.number()]).transform(String)).default([]),
  message: z.string(),
});
export const lintSchema = z.looseObject({
  lint: z.looseObject({ warnings: z.array(lintWarningSchema).default([]) }),
});
export type LintWarning = z.output<typeof lintWarningSchema>;

/** `config.pusher` is kept loose here; realtime/ validates it with its own schema. */
export const configSchema = z.looseObject({
  config: z.looseObject({
    host: z.string().optional(),
    pusher: z.looseObject({ key: z.string() }).optional(),
    github: z
      .looseObject({ api_url: z.string().optional(), scopes: z.array(z.string()).optional() })
      .optional(),
  }),
});
export type ServiceConfig = z.output<typeof configSchema>['config'];

export const logSchema = z.looseObject({
  id: id.nullable().optional(),
  job_id: id,
  body: z.string().nullable().optional(),
  parts: z
    .array(
      z.looseObject({
        number: z.number().int(),
        content: z
          .string()
          .nullable()
          .transform((v) => v ?? ''),
        final: z.boolean().optional(),
      }),
    )
    .optional(),
});
export type Log = z.output<typeof logSchema>;

export const v3RepositorySchema = z.looseObject({
  '@type': z.string().optional(),
  '@permissions': z.record(z.string(), z.boolean()).optional(),
  id,
  name: z.string().optional(),
  slug: z.string(),
  active: booleanLike,
  private: z.boolean().optional(),
  migration_status: z.string().nullable().optional(),
});
export type V3Repository = z.output<typeof v3RepositorySchema>;

export const pusherAuthSchema = z.looseObject({ channels: z.record(z.string(), z.string()) });
