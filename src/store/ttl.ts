/**
 * Both Kv implementations accept the same TTLs: a whole number of milliseconds above zero. Anything
 * else is a bug in the caller (Redis would refuse it with a syntax error), so it throws at once
 * instead of becoming a StoreUnavailableError that invites a retry.
 */
export function assertTtl(ttlMs: number): number {
  if (!Number.isSafeInteger(ttlMs) || ttlMs <= 0) {
    throw new RangeError(`A TTL must be a whole number of milliseconds above 0, got ${ttlMs}`);
  }
  return ttlMs;
}
