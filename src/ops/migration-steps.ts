import type { CiSession } from '../ci/client.js';
import { isCiError } from '../ci/errors.js';
import { getV3Repository, migrateRepository } from '../ci/migration.js';
import type { V3Repository } from '../ci/schemas.js';
import { type BatchRepo, FINAL_STATUSES, type RepoMigrationStatus } from '../store/migration-batches.js';

/**
 * One repository of a batch, one step at a time: send the migrate request, or read its
 * `migration_status` on the new deployment. Each step changes the repository's record in place;
 * the caller stores it and shows it. No Slack, no storage here.
 */

export interface CheckTiming {
  /** Wait before the first check of a repository's status. */
  firstCheckMs: number;
  /** The wait grows by half each check, up to this. */
  maxCheckMs: number;
  /** A repository not finished this long after its request is given up on (`lost`). */
  giveUpAfterMs: number;
  /** Times a request whose answer was lost is sent again before it counts as failed. */
  maxRequests: number;
}

export interface StepContext {
  session: CiSession;
  timing: CheckTiming;
  now: () => Date;
  /** The sentence for a failed request or check ("Your travis-ci.com account (rkh) is not allowed to migrate …"). */
  describe: (error: unknown, repoName: string) => string;
}

/** "owner/name", or "repository 123" until the service named it. */
export function repoName(repo: Pick<BatchRepo, 'slug' | 'ref'>): string {
  return repo.slug ?? (typeof repo.ref === 'number' ? `repository ${repo.ref}` : repo.ref);
}

export function isFinal(repo: Pick<BatchRepo, 'status'>): boolean {
  return FINAL_STATUSES.has(repo.status);
}

/** Waiting for the service: its status is read again at `nextCheckAt`. */
export function isChecking(repo: Pick<BatchRepo, 'status'>): boolean {
  return repo.status === 'requested' || repo.status === 'queued' || repo.status === 'migrating';
}

/** Sends the migrate request (V3, as the session's user). */
export async function requestMigration(repo: BatchRepo, ctx: StepContext): Promise<void> {
  repo.requests += 1;
  repo.requestedAt ??= ctx.now().toISOString();
  try {
    const answer = await migrateRepository(ctx.session, addressOf(repo));
    learn(repo, answer);
    // 202: accepted; without a status yet it waits in the service's queue.
    applyStatus(repo, answer.migration_status ?? 'queued', ctx);
  } catch (error) {
    if (isCiError(error, 'already_migrated')) finish(repo, 'already', ctx);
    else if (answerLost(error) && repo.requests < ctx.timing.maxRequests) {
      // It may have arrived: the next check reads the repository to find out.
      repo.status = 'requested';
      schedule(repo, ctx);
    } else finish(repo, 'error', ctx, ctx.describe(error, repoName(repo)));
  }
}

/** Reads `migration_status` and moves the repository on; a passing failure to read only waits longer. */
export async function checkMigration(repo: BatchRepo, ctx: StepContext): Promise<void> {
  repo.checks += 1;
  try {
    const answer = await getV3Repository(ctx.session, addressOf(repo));
    learn(repo, answer);
    const status = answer.migration_status ?? null;
    if (status === null && repo.status === 'requested') {
      // The request never arrived: send it again.
      repo.status = 'pending';
      delete repo.nextCheckAt;
      return;
    }
    if (status !== null) applyStatus(repo, status, ctx);
  } catch (error) {
    if (!(isCiError(error) && error.transient)) {
      finish(repo, 'error', ctx, ctx.describe(error, repoName(repo)));
      return;
    }
  }
  if (isFinal(repo)) return;
  const since = Date.parse(repo.requestedAt ?? '');
  if (Number.isFinite(since) && ctx.now().getTime() - since > ctx.timing.giveUpAfterMs)
    finish(repo, 'lost', ctx);
  else schedule(repo, ctx);
}

/** The earliest moment a repository of the list needs a check; undefined when none waits. */
export function nextCheckAt(repos: readonly BatchRepo[]): number | undefined {
  const times = repos.filter(isChecking).map((repo) => repo.nextCheckAt ?? 0);
  return times.length === 0 ? undefined : Math.min(...times);
}

function addressOf(repo: BatchRepo): number | string {
  return repo.newId ?? repo.ref;
}

function learn(repo: BatchRepo, answer: V3Repository): void {
  repo.newId = answer.id;
  repo.slug = answer.slug;
}

function applyStatus(repo: BatchRepo, status: string, ctx: StepContext): void {
  switch (status) {
    case 'migrated':
    case 'success':
    case 'failure':
      finish(repo, status, ctx);
      return;
    case 'queued':
      repo.status = 'queued';
      break;
    default:
      // 'migrating', or a word the service added since: still at work.
      repo.status = 'migrating';
  }
  schedule(repo, ctx);
}

function schedule(repo: BatchRepo, ctx: StepContext): void {
  const { firstCheckMs, maxCheckMs } = ctx.timing;
  const wait = Math.min(maxCheckMs, firstCheckMs * 1.5 ** Math.max(0, repo.checks - 1));
  repo.nextCheckAt = ctx.now().getTime() + Math.round(wait);
}

/** Ends a repository that is not followed any further (its batch cannot go on), with the reason. */
export function abandon(repo: BatchRepo, detail: string, now: Date): void {
  end(repo, 'error', now, detail);
}

function finish(repo: BatchRepo, status: RepoMigrationStatus, ctx: StepContext, detail?: string): void {
  end(repo, status, ctx.now(), detail);
}

function end(repo: BatchRepo, status: RepoMigrationStatus, now: Date, detail: string | undefined): void {
  repo.status = status;
  repo.finishedAt = now.toISOString();
  delete repo.nextCheckAt;
  if (detail === undefined) delete repo.detail;
  else repo.detail = detail.slice(0, 1000);
}

/** Sent, but no answer came back: it may or may not have arrived. */
function answerLost(error: unknown): boolean {
  return (
    isCiError(error, 'unavailable') && (error.data.reason === 'timeout' || error.data.reason === 'reset')
  );
}
