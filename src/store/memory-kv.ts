import { type Kv, StoreUnavailableError } from './kv.js';
import { assertTtl } from './ttl.js';

interface DataByKind {
  string: string;
  hash: Map<string, string>;
  set: Set<string>;
}
type Kind = keyof DataByKind;
type DataOf<K extends Kind> = DataByKind[K];
type ValueOf<K extends Kind> = { kind: K; data: DataOf<K> };
type Value = { [K in Kind]: ValueOf<K> }[Kind];

interface Entry {
  value: Value;
  /** Epoch ms from the injected clock; undefined means no expiry. */
  expiresAt: number | undefined;
}

type TypedEntry<K extends Kind> = Entry & { value: ValueOf<K> };

export interface MemoryKvOptions {
  /** Clock in epoch ms; tests pass their own to move time. */
  now?: () => number;
  /** How often expired keys are dropped even when nobody reads them. */
  sweepIntervalMs?: number;
}

const DEFAULT_SWEEP_INTERVAL_MS = 60_000;

/**
 * One process, nothing survives a restart. Every method does its work synchronously before the
 * returned promise settles, so each call is atomic by construction. Errors mirror Redis: a command
 * against a key of another type, or `incr` on a non-integer, rejects with StoreUnavailableError.
 */
export class MemoryKv implements Kv {
  private readonly entries = new Map<string, Entry>();
  private readonly now: () => number;
  private readonly sweeper: NodeJS.Timeout;
  private closed = false;

  constructor(options: MemoryKvOptions = {}) {
    this.now = options.now ?? Date.now;
    this.sweeper = setInterval(() => this.sweep(), options.sweepIntervalMs ?? DEFAULT_SWEEP_INTERVAL_MS);
    this.sweeper.unref();
  }

  /** Drops every expired key and returns how many; reads also expire keys lazily. */
  sweep(): number {
    const now = this.now();
    let removed = 0;
    for (const [key, entry] of this.entries) {
      if (entry.expiresAt !== undefined && entry.expiresAt <= now) {
        this.entries.delete(key);
        removed++;
      }
    }
    return removed;
  }

  async get(key: string): Promise<string | null> {
    return this.read(key, 'string') ?? null;
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    this.assertOpen();
    // Like Redis MGET: a key of another type reads as null instead of failing the batch.
    return keys.map((key) => {
      const value = this.live(key)?.value;
      return value?.kind === 'string' ? value.data : null;
    });
  }

  async set(
    key: string,
    value: string,
    options: { ttlMs?: number; ifAbsent?: boolean } = {},
  ): Promise<boolean> {
    this.assertOpen();
    const expiresAt = options.ttlMs === undefined ? undefined : this.now() + assertTtl(options.ttlMs);
    if (options.ifAbsent && this.live(key)) return false;
    this.entries.set(key, { value: { kind: 'string', data: value }, expiresAt });
    return true;
  }

  async del(key: string): Promise<boolean> {
    this.assertOpen();
    const existed = this.live(key) !== undefined;
    this.entries.delete(key);
    return existed;
  }

  async pttl(key: string): Promise<number> {
    this.assertOpen();
    const entry = this.live(key);
    if (!entry) return -2;
    return entry.expiresAt === undefined ? -1 : entry.expiresAt - this.now();
  }

  async incr(key: string, ttlMs?: number): Promise<number> {
    if (ttlMs !== undefined) assertTtl(ttlMs);
    const entry = this.entryOf(key, 'string');
    if (!entry) {
      const expiresAt = ttlMs === undefined ? undefined : this.now() + ttlMs;
      this.entries.set(key, { value: { kind: 'string', data: '1' }, expiresAt });
      return 1;
    }
    const next = /^-?\d+$/.test(entry.value.data) ? Number(entry.value.data) + 1 : Number.NaN;
    if (!Number.isSafeInteger(next)) {
      throw new StoreUnavailableError('ERR value is not an integer or out of range');
    }
    entry.value.data = String(next);
    return next;
  }

  async hget(key: string, field: string): Promise<string | null> {
    return this.read(key, 'hash')?.get(field) ?? null;
  }

  async hset(key: string, field: string, value: string): Promise<void> {
    this.readOrCreate(key, 'hash', () => new Map()).set(field, value);
  }

  async hdel(key: string, field: string): Promise<boolean> {
    const hash = this.read(key, 'hash');
    if (!hash) return false;
    const existed = hash.delete(field);
    if (hash.size === 0) this.entries.delete(key);
    return existed;
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return Object.fromEntries(this.read(key, 'hash') ?? []);
  }

  async sadd(key: string, member: string): Promise<boolean> {
    const set = this.readOrCreate(key, 'set', () => new Set());
    if (set.has(member)) return false;
    set.add(member);
    return true;
  }

  async srem(key: string, member: string): Promise<boolean> {
    const set = this.read(key, 'set');
    if (!set) return false;
    const existed = set.delete(member);
    if (set.size === 0) this.entries.delete(key);
    return existed;
  }

  async smembers(key: string): Promise<string[]> {
    return [...(this.read(key, 'set') ?? [])];
  }

  async replaceIfEquals(key: string, expected: string, value: string, ttlMs?: number): Promise<boolean> {
    if (ttlMs !== undefined) assertTtl(ttlMs);
    const entry = this.entryOf(key, 'string');
    if (entry?.value.data !== expected) return false;
    entry.value.data = value;
    if (ttlMs !== undefined) entry.expiresAt = this.now() + ttlMs;
    return true;
  }

  async renewIfOwner(key: string, owner: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    const entry = this.entryOf(key, 'string');
    if (entry?.value.data !== owner) return false;
    entry.expiresAt = this.now() + ttlMs;
    return true;
  }

  async deleteIfOwner(key: string, owner: string): Promise<boolean> {
    if (this.read(key, 'string') !== owner) return false;
    this.entries.delete(key);
    return true;
  }

  async ping(): Promise<void> {
    this.assertOpen();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    this.entries.clear();
  }

  private assertOpen(): void {
    if (this.closed) throw new StoreUnavailableError('The in-memory store is closed');
  }

  /** The entry under `key`, or undefined when it is missing or has expired (then it is dropped). */
  private live(key: string): Entry | undefined {
    const entry = this.entries.get(key);
    if (entry?.expiresAt !== undefined && entry.expiresAt <= this.now()) {
      this.entries.delete(key);
      return undefined;
    }
    return entry;
  }

  /** The live entry under `key` when it holds `kind`; rejects like Redis WRONGTYPE otherwise. */
  private entryOf<K extends Kind>(key: string, kind: K): TypedEntry<K> | undefined {
    this.assertOpen();
    const entry = this.live(key);
    if (entry === undefined) return undefined;
    if (entry.value.kind !== kind) {
      throw new StoreUnavailableError('WRONGTYPE Operation against a key holding the wrong kind of value');
    }
    return entry as TypedEntry<K>;
  }

  private read<K extends Kind>(key: string, kind: K): DataOf<K> | undefined {
    return this.entryOf(key, kind)?.value.data;
  }

  private readOrCreate<K extends Kind>(key: string, kind: K, create: () => DataOf<K>): DataOf<K> {
    const existing = this.read(key, kind);
    if (existing !== undefined) return existing;
    const data = create();
    this.entries.set(key, { value: { kind, data } as Value, expiresAt: undefined });
    return data;
  }
}
