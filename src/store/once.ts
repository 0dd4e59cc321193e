import type { Kv } from './kv.js';

/**
 * True the first time `key` is claimed within `ttlMs`, false for every repeat (idempotency keys,
 * Slack `event_id` dedup across retries and replicas). The claim is a single atomic SET NX, so of
 * several concurrent callers exactly one gets true. Keys live under `once:`.
 */
export async function once(kv: Kv, key: string, ttlMs: number): Promise<boolean> {
  return kv.set(`once:${key}`, '1', { ttlMs, ifAbsent: true });
}
