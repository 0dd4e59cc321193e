import { setTimeout as delay } from 'node:timers/promises';
import { checkBudgets } from './budgets.js';
import type { OutboxOptions } from './types.js';

const DEFAULT_LIMITS = {
  // A little over Slack's 1 per second, so jitter between our clock and Slack's costs no 429.
  channelIntervalMs: 1050,
  channelBurst: 3,
  maxQueuedPostsPerChannel: 100,
  maxQueuedCallsPerMethod: 1000,
  maxAttempts: 4,
  retryBaseMs: 1000,
};

export type OutboxLimits = typeof DEFAULT_LIMITS;

export interface OutboxSettings extends OutboxLimits {
  budgets: Partial<Record<string, number>>;
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
}

const defaultSleep = (ms: number, signal: AbortSignal) => delay(ms, undefined, { signal });

/** The options with defaults filled in; throws a RangeError for a limit that makes no sense. */
export function resolveSettings(options: OutboxOptions): OutboxSettings {
  const limits: OutboxLimits = {
    channelIntervalMs: options.channelIntervalMs ?? DEFAULT_LIMITS.channelIntervalMs,
    channelBurst: options.channelBurst ?? DEFAULT_LIMITS.channelBurst,
    maxQueuedPostsPerChannel: options.maxQueuedPostsPerChannel ?? DEFAULT_LIMITS.maxQueuedPostsPerChannel,
    maxQueuedCallsPerMethod: options.maxQueuedCallsPerMethod ?? DEFAULT_LIMITS.maxQueuedCallsPerMethod,
    maxAttempts: options.maxAttempts ?? DEFAULT_LIMITS.maxAttempts,
    retryBaseMs: options.retryBaseMs ?? DEFAULT_LIMITS.retryBaseMs,
  };
  for (const [name, value] of Object.entries(limits)) {
    const least = name === 'retryBaseMs' ? 0 : 1;
    if (!(Number.isFinite(value) && value >= least)) {
      throw new RangeError(`outbox ${name} must be a number ≥ ${least}`);
    }
  }
  const budgets = options.budgets ?? {};
  checkBudgets(budgets);
  return { ...limits, budgets, now: options.now ?? Date.now, sleep: options.sleep ?? defaultSleep };
}
