import { z } from 'zod';
import { DEPLOYMENTS } from '../config.js';

/**
 * The shapes `MigrationBatches` keeps: a draft (what `/ci migrate` offered, until someone confirms)
 * and a batch (what is being moved, and where each repository stands). Validated with zod when read.
 */

/**
 * Where one repository of a batch stands.
 * - `pending`: not asked yet; `requested`: asked, but the answer was lost (a timeout, a restart),
 *   so the next check reads the repository to find out;
 * - `queued`, `migrating`: the service's `migration_status` while it works;
 * - final: `migrated`, `success` (the service's own final words), `failure` (the service gave up),
 *   `already` (it was migrating or migrated before we asked), `error` (the request was refused or
 *   failed: `detail` says why), `lost` (still not finished when we stopped checking).
 */
export const REPO_STATUSES = [
  'pending',
  'requested',
  'queued',
  'migrating',
  'migrated',
  'success',
  'failure',
  'already',
  'error',
  'lost',
] as const;
export type RepoMigrationStatus = (typeof REPO_STATUSES)[number];

export const FINAL_STATUSES: ReadonlySet<RepoMigrationStatus> = new Set([
  'migrated',
  'success',
  'failure',
  'already',
  'error',
  'lost',
]);
/** Final statuses after which the repository lives on the new deployment. */
export const MOVED_STATUSES: ReadonlySet<RepoMigrationStatus> = new Set(['migrated', 'success', 'already']);

const slug = z.string().min(3).max(300);
const repoId = z.number().int().positive();
const slackId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

/** A repository as the batch asks for it: `ref` is what the new deployment is addressed with. */
export const plannedRepo = z.object({
  /** A slug, or the repository's id on the new deployment. */
  ref: z.union([slug, repoId]),
  /** Its id on the old deployment, when a listing there gave it. */
  oldId: repoId.optional(),
});
export type PlannedRepo = z.output<typeof plannedRepo>;

export const migrationDraft = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(40),
  teamId: slackId,
  userId: slackId,
  channelId: slackId.optional(),
  from: z.enum(DEPLOYMENTS),
  to: z.enum(DEPLOYMENTS),
  repos: z.array(plannedRepo).min(1).max(50),
  createdAt: z.string(),
});
export type MigrationDraft = z.output<typeof migrationDraft>;

export const batchRepo = plannedRepo.extend({
  /** Known once the input or the new deployment named it. */
  slug: slug.optional(),
  /** The id on the new deployment, once it answered. */
  newId: repoId.optional(),
  status: z.enum(REPO_STATUSES),
  /** A sentence for `error`, `failure` and `lost` (plain text; views escape it). */
  detail: z.string().max(1000).optional(),
  /** Times the migrate request was sent (a lost answer is asked again a few times). */
  requests: z.number().int().nonnegative(),
  /** Checks of `migration_status` so far (the backoff grows with them). */
  checks: z.number().int().nonnegative(),
  /** Epoch ms of the next check while queued, migrating or requested. */
  nextCheckAt: z.number().optional(),
  /** ISO 8601 of the first migrate request. */
  requestedAt: z.string().optional(),
  finishedAt: z.string().optional(),
});
export type BatchRepo = z.output<typeof batchRepo>;

/**
 * A confirmed draft. `userId` is who confirmed: every request of the batch is sent with their token
 * on the new deployment; the progress message goes to `channelId`, or to them when it cannot.
 */
export const migrationBatch = migrationDraft.extend({
  finishedAt: z.string().optional(),
  /** The progress message, once posted. */
  message: z.object({ channel: slackId, ts: z.string().max(40) }).optional(),
  repos: z.array(batchRepo).min(1).max(50),
});
export type MigrationBatch = z.output<typeof migrationBatch>;
