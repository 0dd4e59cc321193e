import { randomBytes } from 'node:crypto';
import type { Services } from '../services.js';
import { Leases } from '../store/leases.js';
import { MigrationBatches } from '../store/migration-batches.js';
import { type DriveTiming, driveBatch } from './driver.js';

export interface MigrationTiming extends DriveTiming {
  /** How often `start`ed runners look for batches nobody drives (a replica died, the app restarted). */
  sweepIntervalMs: number;
  /** The lease of a batch; default `LEASE_TTL_MS`. Renewed at a third of it. */
  leaseTtlMs?: number;
}

export const DEFAULT_MIGRATION_TIMING: MigrationTiming = {
  firstCheckMs: 2_000,
  maxCheckMs: 30_000,
  giveUpAfterMs: 2 * 60 * 60_000,
  maxRequests: 3,
  concurrency: 5,
  sweepIntervalMs: 60_000,
};

/**
 * Drives migration batches in the background, each under a lease so that one replica at a time
 * works on it. `run` starts one at once (the Confirm button does this); `start` also resumes,
 * now and then periodically, every open batch nobody holds (after a restart, or when the replica
 * that drove it died and its lease lapsed). `stop` ends every loop between two steps and gives the
 * leases back, leaving the batches in Redis for the next process.
 */
export class MigrationRunner {
  private readonly timing: MigrationTiming;
  private readonly owner = `migration-${randomBytes(6).toString('hex')}`;
  private readonly driving = new Map<string, Promise<void>>();
  private readonly stopping = new AbortController();
  private sweepTimer: NodeJS.Timeout | undefined;

  constructor(
    private readonly services: () => Services,
    timing: Partial<MigrationTiming> = {},
  ) {
    this.timing = { ...DEFAULT_MIGRATION_TIMING, ...timing };
  }

  /** Drives the batch in this process unless it already does, another holds it, or the runner stopped. */
  run(batchId: string): Promise<void> {
    if (this.stopping.signal.aborted) return Promise.resolve();
    const under = this.driving.get(batchId);
    if (under) return under;
    const task = this.drive(batchId).finally(() => this.driving.delete(batchId));
    this.driving.set(batchId, task);
    return task;
  }

  /** Resumes open batches now and every `sweepIntervalMs` until `stop`. */
  async start(): Promise<void> {
    if (this.sweepTimer || this.stopping.signal.aborted) return;
    this.sweepTimer = setInterval(() => void this.sweep(), this.timing.sweepIntervalMs);
    this.sweepTimer.unref();
    await this.sweep();
  }

  async stop(): Promise<void> {
    clearInterval(this.sweepTimer);
    this.stopping.abort();
    await Promise.allSettled([...this.driving.values()]);
  }

  private async sweep(): Promise<void> {
    const services = this.services();
    try {
      for (const id of await new MigrationBatches(services.kv).openIds()) void this.run(id);
    } catch (error) {
      services.logger.warn({ err: error }, 'could not look for migration batches to resume');
    }
  }

  private async drive(batchId: string): Promise<void> {
    const services = this.services();
    const logger = services.logger.child({ component: 'migration', batch: batchId });
    const leases = new Leases(services.kv, this.owner);
    const lease = `migration:${batchId}`;
    const ttlMs = this.timing.leaseTtlMs ?? services.config.leaseTtlMs;
    try {
      if (!(await leases.acquire(lease, ttlMs))) return;
    } catch (error) {
      logger.warn({ err: error }, 'could not take the lease of a migration batch');
      return;
    }
    const lost = new AbortController();
    const renewal = setInterval(
      () => {
        leases.renew(lease, ttlMs).then(
          (held) => {
            if (!held) lost.abort();
          },
          (error: unknown) => logger.warn({ err: error }, 'could not renew the lease of a migration batch'),
        );
      },
      Math.max(10, Math.floor(ttlMs / 3)),
    );
    const signal = AbortSignal.any([this.stopping.signal, lost.signal]);
    try {
      await driveBatch(
        { services, batches: new MigrationBatches(services.kv), timing: this.timing, signal, logger },
        batchId,
      );
    } catch (error) {
      // Left open: the next sweep (here or on another replica) takes it up again.
      logger.error({ err: error }, 'a migration batch stopped on an error');
    } finally {
      clearInterval(renewal);
      await leases.release(lease).catch((error: unknown) => {
        logger.warn({ err: error }, 'could not give back the lease of a migration batch');
      });
    }
  }
}
