import type { Kv } from './kv.js';

const leaseKey = (name: string) => `lease:${name}`;
/** How many leases one MGET reads. */
const HOLDERS_BATCH = 500;

/**
 * Named leases so that one replica at a time does a job (for example polling a CI deployment).
 * The key holds the owner id; renew and release act only while this owner still holds it, in one
 * atomic step, so a lease that expired and was taken by another replica is never extended or freed
 * by the old holder. A holder that stops renewing loses the lease when its TTL runs out.
 */
export class Leases {
  constructor(
    private readonly kv: Kv,
    private readonly owner: string,
  ) {
    if (owner === '') throw new RangeError('A lease owner id must not be empty');
  }

  /** True when this owner holds the lease afterwards; acquiring a lease it already holds renews it. */
  async acquire(name: string, ttlMs: number): Promise<boolean> {
    if (await this.kv.set(leaseKey(name), this.owner, { ttlMs, ifAbsent: true })) return true;
    return this.kv.renewIfOwner(leaseKey(name), this.owner, ttlMs);
  }

  /** Extends the lease to `ttlMs` from now; false when this owner no longer holds it. */
  renew(name: string, ttlMs: number): Promise<boolean> {
    return this.kv.renewIfOwner(leaseKey(name), this.owner, ttlMs);
  }

  /** Gives the lease up; false when this owner did not hold it. */
  release(name: string): Promise<boolean> {
    return this.kv.deleteIfOwner(leaseKey(name), this.owner);
  }

  /** Who holds each lease (an owner id, or null when free), read in batches without taking any. */
  async holders(names: string[]): Promise<(string | null)[]> {
    const owners: (string | null)[] = [];
    for (let i = 0; i < names.length; i += HOLDERS_BATCH) {
      owners.push(...(await this.kv.mget(names.slice(i, i + HOLDERS_BATCH).map(leaseKey))));
    }
    return owners;
  }
}
