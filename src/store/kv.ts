/**
 * The small set of storage operations the app needs. Two implementations: `RedisKv` (ioredis,
 * shared by every replica) and `MemoryKv` (one process, nothing survives a restart). Every
 * higher-level store (linked accounts, subscriptions, threads, leases, dedup keys) is written once
 * against this interface, and both implementations pass one contract suite.
 *
 * Keys passed in are relative; each implementation prefixes them with its namespace.
 * Every method rejects with `StoreUnavailableError` when the backend cannot answer in time.
 */
export interface Kv {
  get(key: string): Promise<string | null>;
  mget(keys: string[]): Promise<(string | null)[]>;
  /** Returns false only when `ifAbsent` is set and the key already exists. */
  set(key: string, value: string, options?: { ttlMs?: number; ifAbsent?: boolean }): Promise<boolean>;
  /** Returns true when the key existed. */
  del(key: string): Promise<boolean>;
  /** Remaining time to live in ms; -1 without expiry; -2 when the key does not exist. */
  pttl(key: string): Promise<number>;
  /** Atomic increment; sets `ttlMs` when the key is created by this call. */
  incr(key: string, ttlMs?: number): Promise<number>;

  hget(key: string, field: string): Promise<string | null>;
  hset(key: string, field: string, value: string): Promise<void>;
  hdel(key: string, field: string): Promise<boolean>;
  hgetall(key: string): Promise<Record<string, string>>;

  sadd(key: string, member: string): Promise<boolean>;
  srem(key: string, member: string): Promise<boolean>;
  smembers(key: string): Promise<string[]>;

  /**
   * Atomic compare-and-set: replaces the value only while it is still `expected` (a string key),
   * setting `ttlMs` when given. False when the key holds anything else or nothing.
   */
  replaceIfEquals(key: string, expected: string, value: string, ttlMs?: number): Promise<boolean>;

  /** Lease helpers: act only while `key` still holds `owner` (atomic compare-and-act). */
  renewIfOwner(key: string, owner: string, ttlMs: number): Promise<boolean>;
  deleteIfOwner(key: string, owner: string): Promise<boolean>;

  /** Resolves when the backend answers; rejects with StoreUnavailableError otherwise. */
  ping(): Promise<void>;
  close(): Promise<void>;
}

export class StoreUnavailableError extends Error {
  override readonly name = 'StoreUnavailableError';
  readonly code = 'store_unavailable';
}
