import { Redis } from 'ioredis';
import type { Logger } from '../log.js';
import { type Kv, StoreUnavailableError } from './kv.js';
import { assertTtl } from './ttl.js';

/** How long one call may take, waiting for a connection included, before it rejects. */
const DEFAULT_TIMEOUT_MS = 2_000;
/** Reconnect backoff: 100 ms doubling up to this cap, so a restarted Redis is found again quickly. */
const MAX_RECONNECT_DELAY_MS = 1_000;

// Compare-and-act scripts: Redis runs a script atomically, so nobody can take the key in between.
const RENEW_IF_OWNER = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('PEXPIRE', KEYS[1], ARGV[2])
end
return 0`;
const DELETE_IF_OWNER = `if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0`;
const REPLACE_IF_EQUALS = `if redis.call('GET', KEYS[1]) ~= ARGV[1] then
  return 0
end
if ARGV[3] == '' then
  redis.call('SET', KEYS[1], ARGV[2])
else
  redis.call('SET', KEYS[1], ARGV[2], 'PX', ARGV[3])
end
return 1`;
// SET NX creates the counter with its TTL only when absent; INCR keeps an existing TTL.
const INCR_WITH_TTL = `redis.call('SET', KEYS[1], '0', 'NX', 'PX', ARGV[1])
return redis.call('INCR', KEYS[1])`;

export interface RedisKvOptions {
  /** Put before every key, verbatim (include the separator: `ci-slack:`). */
  prefix: string;
  /** Upper bound for one call, waiting for a connection included. */
  timeoutMs?: number;
}

/**
 * `Kv` over an ioredis client; the client should come from `createRedis`, which makes ioredis
 * reject instead of queueing while disconnected. A call made while the client is (re)connecting
 * waits for the connection within the same time budget; any command error or timeout becomes
 * StoreUnavailableError with the original error as `cause`. `close()` closes the client.
 */
export class RedisKv implements Kv {
  private readonly prefix: string;
  private readonly timeoutMs: number;
  /** Callers waiting for the connection to become ready. */
  private readonly waiters = new Set<() => void>();
  private readonly onReady = () => {
    for (const wake of this.waiters) wake();
    this.waiters.clear();
  };
  private closed = false;

  constructor(
    private readonly redis: Redis,
    options: RedisKvOptions,
  ) {
    this.prefix = options.prefix;
    this.timeoutMs = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
    redis.on('ready', this.onReady);
  }

  async get(key: string): Promise<string | null> {
    return this.run('GET', () => this.redis.get(this.k(key)));
  }

  async mget(keys: string[]): Promise<(string | null)[]> {
    if (keys.length === 0) return this.run('MGET', async () => []);
    return this.run('MGET', () => this.redis.mget(keys.map((key) => this.k(key))));
  }

  async set(
    key: string,
    value: string,
    options: { ttlMs?: number; ifAbsent?: boolean } = {},
  ): Promise<boolean> {
    const { ttlMs, ifAbsent } = options;
    if (ttlMs !== undefined) assertTtl(ttlMs);
    return this.run('SET', async () => {
      const k = this.k(key);
      let reply: 'OK' | null;
      if (ttlMs !== undefined && ifAbsent) reply = await this.redis.set(k, value, 'PX', ttlMs, 'NX');
      else if (ttlMs !== undefined) reply = await this.redis.set(k, value, 'PX', ttlMs);
      else if (ifAbsent) reply = await this.redis.set(k, value, 'NX');
      else reply = await this.redis.set(k, value);
      return reply === 'OK';
    });
  }

  async del(key: string): Promise<boolean> {
    return this.run('DEL', async () => (await this.redis.del(this.k(key))) > 0);
  }

  async pttl(key: string): Promise<number> {
    return this.run('PTTL', () => this.redis.pttl(this.k(key)));
  }

  async incr(key: string, ttlMs?: number): Promise<number> {
    if (ttlMs === undefined) return this.run('INCR', () => this.redis.incr(this.k(key)));
    assertTtl(ttlMs);
    return this.run('INCR', async () =>
      toNumber(await this.redis.eval(INCR_WITH_TTL, 1, this.k(key), ttlMs)),
    );
  }

  async hget(key: string, field: string): Promise<string | null> {
    return this.run('HGET', () => this.redis.hget(this.k(key), field));
  }

  async hset(key: string, field: string, value: string): Promise<void> {
    return this.run('HSET', async () => {
      await this.redis.hset(this.k(key), field, value);
    });
  }

  async hdel(key: string, field: string): Promise<boolean> {
    return this.run('HDEL', async () => (await this.redis.hdel(this.k(key), field)) > 0);
  }

  async hgetall(key: string): Promise<Record<string, string>> {
    return this.run('HGETALL', () => this.redis.hgetall(this.k(key)));
  }

  async sadd(key: string, member: string): Promise<boolean> {
    return this.run('SADD', async () => (await this.redis.sadd(this.k(key), member)) > 0);
  }

  async srem(key: string, member: string): Promise<boolean> {
    return this.run('SREM', async () => (await this.redis.srem(this.k(key), member)) > 0);
  }

  async smembers(key: string): Promise<string[]> {
    return this.run('SMEMBERS', () => this.redis.smembers(this.k(key)));
  }

  async replaceIfEquals(key: string, expected: string, value: string, ttlMs?: number): Promise<boolean> {
    if (ttlMs !== undefined) assertTtl(ttlMs);
    const ttl = ttlMs === undefined ? '' : String(ttlMs);
    return this.run(
      'replaceIfEquals',
      async () =>
        toNumber(await this.redis.eval(REPLACE_IF_EQUALS, 1, this.k(key), expected, value, ttl)) === 1,
    );
  }

  async renewIfOwner(key: string, owner: string, ttlMs: number): Promise<boolean> {
    assertTtl(ttlMs);
    return this.run(
      'renewIfOwner',
      async () => toNumber(await this.redis.eval(RENEW_IF_OWNER, 1, this.k(key), owner, ttlMs)) === 1,
    );
  }

  async deleteIfOwner(key: string, owner: string): Promise<boolean> {
    return this.run(
      'deleteIfOwner',
      async () => toNumber(await this.redis.eval(DELETE_IF_OWNER, 1, this.k(key), owner)) === 1,
    );
  }

  async ping(): Promise<void> {
    await this.run('PING', () => this.redis.ping());
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.redis.off('ready', this.onReady);
    this.onReady(); // waiting callers wake up, see `closed` and reject
    // QUIT lets in-flight replies arrive; it rejects when not connected, and then the socket is dropped.
    await this.redis.quit().catch(() => this.redis.disconnect());
  }

  private k(key: string): string {
    return this.prefix + key;
  }

  private async run<T>(command: string, op: () => Promise<T>): Promise<T> {
    const deadline = Date.now() + this.timeoutMs;
    try {
      await this.connected(command, deadline);
      return await withDeadline(op(), deadline, () => unavailable(`Redis ${command} timed out`));
    } catch (error) {
      if (error instanceof StoreUnavailableError) throw error;
      throw unavailable(`Redis ${command} failed`, error);
    }
  }

  /** Resolves once the client is ready; rejects when closed or not ready before the deadline. */
  private async connected(command: string, deadline: number): Promise<void> {
    if (this.closed || this.redis.status === 'end') {
      throw unavailable(`Redis ${command} refused: the connection is closed`);
    }
    if (this.redis.status === 'ready') return;
    if (this.redis.status === 'wait') this.redis.connect().catch(() => undefined); // lazyConnect clients
    let wake = () => {};
    const ready = new Promise<void>((resolve) => {
      wake = resolve;
      this.waiters.add(wake);
    });
    try {
      await withDeadline(ready, deadline, () => unavailable(`Redis ${command} failed: not connected`));
    } finally {
      this.waiters.delete(wake);
    }
    if (this.closed) throw unavailable(`Redis ${command} refused: the connection is closed`);
  }
}

function unavailable(message: string, cause?: unknown): StoreUnavailableError {
  return cause === undefined
    ? new StoreUnavailableError(message)
    : new StoreUnavailableError(message, { cause });
}

function toNumber(reply: unknown): number {
  if (typeof reply === 'number') return reply;
  throw new TypeError(`Unexpected script reply of type ${typeof reply}`);
}

/** `promise`, or a rejection with `onTimeout()` at `deadline` (epoch ms), whichever comes first. */
function withDeadline<T>(promise: Promise<T>, deadline: number, onTimeout: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(onTimeout()), Math.max(0, deadline - Date.now()));
  });
  // A late rejection of the losing promise must not surface as an unhandled rejection.
  promise.catch(() => undefined);
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * An ioredis client that fails fast while Redis is unreachable and reconnects in the background:
 * - `enableOfflineQueue: false`: nothing is queued while disconnected (RedisKv waits for the
 *   connection itself, within its time budget), so a command never runs long after it was given up;
 * - `maxRetriesPerRequest: 0` and `autoResendUnfulfilledCommands: false`: commands in flight when the
 *   connection drops reject at once and are not replayed on reconnect;
 * - `commandTimeout` / `connectTimeout`: a silent server or a black-holed address cannot hang a call;
 * - reconnect forever with a capped exponential backoff.
 * Connection state changes are logged once per change, not once per retry. The URL is never logged
 * (it may hold a password).
 */
export function createRedis(url: string, logger: Logger): Redis {
  const redis = new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: DEFAULT_TIMEOUT_MS,
    connectTimeout: DEFAULT_TIMEOUT_MS,
    // Grace period for a closing socket; ioredis also arms it when the socket is already gone, and
    // the timer then holds the process open that long at shutdown.
    disconnectTimeout: 500,
    retryStrategy: (attempt) => Math.min(100 * 2 ** Math.min(attempt - 1, 10), MAX_RECONNECT_DELAY_MS),
  });
  const target = describeTarget(url);
  let state: 'starting' | 'up' | 'down' = 'starting';
  const markDown = (reason: string) => {
    if (state === 'down') return;
    logger.warn(
      { redis: target, reason },
      'Redis is unreachable: storage calls fail until it is back; reconnecting in the background',
    );
    state = 'down';
  };
  redis.on('ready', () => {
    if (state === 'up') return;
    logger.info({ redis: target }, state === 'down' ? 'Redis connection restored' : 'Connected to Redis');
    state = 'up';
  });
  // Without an 'error' listener ioredis prints every failed reconnect attempt to the console.
  redis.on('error', (error: Error) => markDown(error.message));
  // 'reconnecting' rather than 'close': a deliberate quit closes without reconnecting.
  redis.on('reconnecting', () => markDown('connection lost'));
  return redis;
}

function describeTarget(url: string): string {
  try {
    const { protocol, hostname, port } = new URL(url);
    return `${protocol}//${hostname}:${port || '6379'}`;
  } catch {
    return 'redis';
  }
}
