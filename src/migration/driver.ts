import { randomBytes } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { openSession } from '../ops/actor.js';
import { describeError, NotLinkedError } from '../ops/describe-error.js';
import {
  abandon,
  type CheckTiming,
  checkMigration,
  isChecking,
  isFinal,
  nextCheckAt,
  requestMigration,
  type StepContext,
} from '../ops/migration-steps.js';
import { rememberMoved } from '../ops/moved-repos.js';
import type { Services } from '../services.js';
import {
  type BatchRepo,
  type MigrationBatch,
  type MigrationBatches,
  MOVED_STATUSES,
} from '../store/migration-batches.js';
import { offerSubscriptionMoves } from './offers.js';
import { ProgressMessage } from './progress-message.js';
import { listenForMigrationHints, type MigrationHint } from './realtime-hints.js';

export interface DriveTiming extends CheckTiming {
  /** Status checks sent at once, per batch. */
  concurrency: number;
}

export interface DriveDeps {
  services: Services;
  batches: MigrationBatches;
  timing: DriveTiming;
  /** Aborted when the process stops or loses the batch's lease: the loop ends between steps. */
  signal: AbortSignal;
  logger: Services['logger'];
}

/** The shortest sleep between rounds, so a loop never spins. */
const MIN_SLEEP_MS = 10;

/**
 * Drives one batch to its end (or until `signal` aborts): sends each pending request, reads the
 * status of each repository waiting on the service when its check is due, stores the batch and
 * edits its message after every change, and finishes with the summary. Resumable at any point:
 * everything it needs is in the stored batch.
 */
export async function driveBatch(deps: DriveDeps, batchId: string): Promise<void> {
  // Finished meanwhile by the process that held it before (a sweep read the list just before).
  if (!(await deps.batches.isOpen(batchId))) return;
  const batch = await deps.batches.get(batchId);
  if (!batch) {
    await deps.batches.forget(batchId);
    return;
  }
  await new BatchDriver(deps, batch).run();
}

class BatchDriver {
  private readonly progress: ProgressMessage;
  /** Ends the current sleep early: a realtime event said a repository's status moved. */
  private wake = new AbortController();

  constructor(
    private readonly deps: DriveDeps,
    private readonly batch: MigrationBatch,
  ) {
    this.progress = new ProgressMessage(deps, batch);
  }

  async run(): Promise<void> {
    await this.progress.ensurePosted();
    const stopListening = await listenForMigrationHints(this.deps.services, this.batch, (hint) =>
      this.checkSoon(hint),
    );
    try {
      await this.loop();
    } finally {
      stopListening();
    }
  }

  private async loop(): Promise<void> {
    const { signal } = this.deps;
    while (!signal.aborted) {
      if (this.batch.repos.every(isFinal)) {
        await this.finish();
        return;
      }
      await this.round();
      if (this.batch.repos.every(isFinal) || signal.aborted) continue;
      const nextRoundAt = this.batch.repos.some((repo) => repo.status === 'pending')
        ? 0
        : (nextCheckAt(this.batch.repos) ?? 0);
      const wait = Math.max(MIN_SLEEP_MS, nextRoundAt - this.deps.services.clock().getTime());
      this.wake = new AbortController();
      await sleep(wait, undefined, { signal: AbortSignal.any([signal, this.wake.signal]) }).catch(
        () => undefined,
      );
    }
  }

  /** Makes the named repository's check due now, if it is waiting on the service. */
  private checkSoon(hint: MigrationHint): void {
    const repo = this.batch.repos.find(
      (r) =>
        isChecking(r) &&
        ((hint.id !== undefined && r.newId === hint.id) || (hint.slug !== undefined && r.slug === hint.slug)),
    );
    if (!repo) return;
    repo.nextCheckAt = this.deps.services.clock().getTime();
    this.wake.abort();
  }

  private async round(): Promise<void> {
    const ctx = await this.stepContext();
    if (!ctx) return;
    for (const repo of this.batch.repos) {
      if (this.deps.signal.aborted) return;
      if (repo.status !== 'pending') continue;
      await this.step([repo], (r) => requestMigration(r, ctx));
    }
    const now = this.deps.services.clock().getTime();
    const due = this.batch.repos.filter((repo) => isChecking(repo) && (repo.nextCheckAt ?? 0) <= now);
    const { concurrency } = this.deps.timing;
    for (let i = 0; i < due.length && !this.deps.signal.aborted; i += concurrency) {
      await this.step(due.slice(i, i + concurrency), (r) => checkMigration(r, ctx));
    }
  }

  /** Runs `work` on each repository at once, then records what changed and shows it. */
  private async step(repos: BatchRepo[], work: (repo: BatchRepo) => Promise<void>): Promise<void> {
    await Promise.all(
      repos.map(async (repo) => {
        const before = repo.status;
        await work(repo);
        if (repo.status !== before && MOVED_STATUSES.has(repo.status)) await this.afterMoved(repo);
      }),
    );
    await this.deps.batches.save(this.batch);
    await this.progress.show();
  }

  /**
   * The confirming user's session on the new deployment. Should they have unlinked meanwhile, the
   * repositories not finished yet fail with a sentence saying so, and no request is sent.
   */
  private async stepContext(): Promise<StepContext | undefined> {
    const { services, timing } = this.deps;
    const actor = { teamId: this.batch.teamId, userId: this.batch.userId };
    try {
      const { session, account } = await openSession(services, actor, this.batch.to);
      return {
        session,
        timing,
        now: services.clock,
        describe: (error, name) => this.describe(error, name, account.ciLogin),
      };
    } catch (error) {
      if (!(error instanceof NotLinkedError)) throw error;
      const label = services.label(this.batch.to);
      const now = services.clock();
      for (const repo of this.batch.repos) {
        if (!isFinal(repo)) {
          abandon(
            repo,
            `The ${label} account of the person who confirmed is no longer linked, so I stopped.`,
            now,
          );
        }
      }
      await this.deps.batches.save(this.batch);
      return undefined;
    }
  }

  private describe(error: unknown, name: string, login: string): string {
    const reference = randomBytes(4).toString('hex');
    const described = describeError(
      error,
      {
        deploymentLabel: this.deps.services.label(this.batch.to),
        action: `migrate ${name}`,
        subject: name,
        login,
        isChange: true,
      },
      reference,
    );
    if (described.reference) {
      this.deps.logger.error(
        { err: error, reference, batch: this.batch.id },
        'unexpected error while migrating a repository',
      );
    }
    return described.text;
  }

  /**
   * The repository lives on the new deployment now: the old one is read-only for it, and the
   * channels following it there are asked about their subscriptions. Neither may stop the batch.
   */
  private async afterMoved(repo: BatchRepo): Promise<void> {
    try {
      await rememberMoved(
        this.deps.services,
        this.batch.from,
        { slug: repo.slug, id: repo.oldId },
        'migrated_by_app',
      );
      if (repo.slug) await offerSubscriptionMoves(this.deps, this.batch, repo.slug);
    } catch (error) {
      this.deps.logger.warn(
        { err: error, batch: this.batch.id },
        'could not follow up a migrated repository',
      );
    }
  }

  private async finish(): Promise<void> {
    this.batch.finishedAt ??= this.deps.services.clock().toISOString();
    await this.deps.batches.save(this.batch);
    await this.progress.show({ final: true });
    await this.deps.batches.finish(this.batch);
  }
}
