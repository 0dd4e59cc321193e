import type { Kv } from './kv.js';

/**
 * True the first time `key` is claimed within `ttlMs`, false for every repeat (idempotency keys,
 * Slack `event_id` dedup across retries and replicas). The claim is a single atomic SET NX, so of
 * several concurrent callers exactly one gets true. Keys live under `once:`.
 */
export async function once(kv: Kv, key: string, ttlMs: number): Promise<boolean> {
  return kv.set(`once:${key}`, '1', { ttlMs, ifAbsent: true });
}

/**
 * Gives a claim back, so the next `once` for `key` is true again: for a claimant whose work failed
 * after claiming and must be retried (by itself or by another replica).
 */
export async function forgetOnce(kv: Kv, key: string): Promise<void> {
  await kv.del(`once:${key}`);
}
