import { createHash } from 'node:crypto';
import { compareText } from '../../compare-text.js';
import type { Leases } from '../../store/leases.js';
import { mapLimit } from './concurrency.js';
import type { Presence } from './presence.js';

/** Redis round trips a balancing round keeps in flight at once. */
const PARALLEL = 64;

export interface BalanceResult {
  acquired: string[];
  /** Given up on purpose (no longer watched, more than this process's share) or lost (expired). */
  released: string[];
  held: number;
  /** This process's share: fewer held means it should look for free leases again soon. */
  target: number;
  liveProcesses: number;
}

export const unitLeaseName = (unit: string) => `watch:${unit}`;

/** This process's share of `units` among the `live` process ids (sorted, this one included). */
export function shareOf(units: number, live: readonly string[], processId: string): number {
  const count = Math.max(1, live.length);
  const index = live.indexOf(processId);
  const base = Math.floor(units / count);
  return base + (index >= 0 && index < units % count ? 1 : 0);
}

/**
 * Keeps this process holding its share of the watched units, one lease per unit. Each round renews
 * the heartbeat and the held leases, gives up units nobody watches any more, and moves towards its
 * share: `units / live processes`, the remainder going one each to the first processes in id order,
 * so every process computes the same split. It releases its surplus when more processes came up,
 * and takes free leases when some went away or their holder died (its leases lapse after their TTL,
 * its heartbeat too, and the next round of a survivor takes them). Each process prefers its own
 * units (rendezvous hashing of process id and unit), so two processes starting together rarely race
 * for the same lease.
 */
export class LeaseBalancer {
  /** Held unit → the time its lease runs out unless renewed (epoch ms). */
  readonly #held = new Map<string, number>();
  readonly #ranks = new Map<string, string>();

  constructor(
    private readonly options: {
      leases: Leases;
      presence: Presence;
      processId: string;
      ttlMs: number;
      now?: () => number;
    },
  ) {}

  /** Whether this process holds the unit's lease now (a lease not renewed in time counts as lost). */
  holds(unit: string): boolean {
    const until = this.#held.get(unit);
    return until !== undefined && until > this.#now();
  }

  get held(): string[] {
    return [...this.#held.keys()].filter((unit) => this.holds(unit));
  }

  async balance(wanted: readonly string[]): Promise<BalanceResult> {
    const { leases, presence, ttlMs } = this.options;
    const live = await presence.beat();
    const wantedSet = new Set(wanted);
    for (const unit of this.#ranks.keys()) if (!wantedSet.has(unit)) this.#ranks.delete(unit);
    const released: string[] = [];
    const acquired: string[] = [];

    const unwanted = [...this.#held.keys()].filter((unit) => !wantedSet.has(unit));
    await this.#release(unwanted, released);

    const renewing = [...this.#held.keys()];
    const renewedAt = this.#now();
    const renewals = await mapLimit(renewing, PARALLEL, (unit) => leases.renew(unitLeaseName(unit), ttlMs));
    for (const [index, outcome] of renewals.entries()) {
      const unit = renewing[index] as string;
      // A renewal that failed to reach Redis keeps the old expiry: the lease lapses by itself if it must.
      if (outcome.status === 'rejected') continue;
      if (outcome.value) this.#held.set(unit, renewedAt + ttlMs);
      else {
        this.#held.delete(unit);
        released.push(unit);
      }
    }

    const target = shareOf(wanted.length, live, this.options.processId);
    if (this.#held.size > target) {
      const surplus = [...this.#held.keys()]
        .sort((a, b) => compareText(this.#rank(a), this.#rank(b)))
        .slice(0, this.#held.size - target);
      await this.#release(surplus, released);
    } else if (this.#held.size < target) {
      await this.#acquire(
        wanted.filter((unit) => !this.#held.has(unit)),
        target,
        acquired,
      );
    }
    return { acquired, released, held: this.#held.size, target, liveProcesses: live.length };
  }

  /** Gives up every lease (on stop), so another process can take them at its next round. */
  async releaseAll(): Promise<string[]> {
    const released: string[] = [];
    await this.#release([...this.#held.keys()], released);
    return released;
  }

  async #acquire(candidates: string[], target: number, acquired: string[]): Promise<void> {
    const { leases, ttlMs } = this.options;
    const preferred = candidates.sort((a, b) => compareText(this.#rank(b), this.#rank(a)));
    const holders = await leases.holders(preferred.map(unitLeaseName));
    const free = preferred.filter((_, index) => holders[index] === null);
    while (free.length > 0 && this.#held.size < target) {
      const batch = free.splice(0, Math.min(PARALLEL, target - this.#held.size));
      const startedAt = this.#now();
      const outcomes = await mapLimit(batch, PARALLEL, (unit) => leases.acquire(unitLeaseName(unit), ttlMs));
      for (const [index, outcome] of outcomes.entries()) {
        if (outcome.status !== 'fulfilled' || !outcome.value) continue;
        const unit = batch[index] as string;
        this.#held.set(unit, startedAt + ttlMs);
        acquired.push(unit);
      }
    }
  }

  async #release(units: string[], released: string[]): Promise<void> {
    for (const unit of units) this.#held.delete(unit);
    released.push(...units);
    // Failing to release is harmless: the lease lapses after its TTL.
    await mapLimit(units, PARALLEL, (unit) => this.options.leases.release(unitLeaseName(unit)));
  }

  #rank(unit: string): string {
    let rank = this.#ranks.get(unit);
    if (rank === undefined) {
      rank = createHash('sha1').update(`${this.options.processId}\n${unit}`).digest('base64');
      this.#ranks.set(unit, rank);
    }
    return rank;
  }

  #now(): number {
    return (this.options.now ?? Date.now)();
  }
}
