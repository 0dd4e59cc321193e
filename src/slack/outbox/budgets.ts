import { TokenBucket } from './token-bucket.js';

/**
 * Calls per minute per workspace, from Slack's published tiers (Tier 2 = 20, Tier 3 = 50,
 * Tier 4 = 100). Tiers are minimums: Slack may allow a workspace more, so every entry can be
 * raised through `OutboxOptions.budgets`.
 */
export const DEFAULT_BUDGETS: Readonly<Record<string, number>> = {
  'chat.update': 50,
  'chat.delete': 50,
  'chat.unfurl': 50,
  'chat.postEphemeral': 100,
  'conversations.open': 50,
  'conversations.info': 50,
  'reactions.add': 50,
  'reactions.remove': 50,
  'users.info': 100,
  'views.open': 100,
  'views.push': 100,
  'views.update': 100,
  'views.publish': 100,
};

/** Any other method is held to Tier 2 until a budget is given for it. */
export const FALLBACK_BUDGET = 20;

/**
 * chat.postMessage is limited per channel (about 1 a second), not by a tier; Slack keeps an
 * unpublished workspace-wide ceiling besides. It has no workspace budget unless one is given.
 */
export const POST_MESSAGE = 'chat.postMessage';
export const UPDATE = 'chat.update';

const WINDOW_MS = 60_000;
/**
 * Slack counts calls as they arrive; ours are counted as they leave. Spreading a minute's budget
 * over a slightly longer window absorbs network jitter (a call sent late but arriving early).
 */
const WINDOW_MARGIN_MS = 2_000;
const MAX_METHOD_BURST = 20;

/** The budget of `method` per minute, or undefined when the method has no workspace budget. */
export function budgetFor(method: string, overrides: Partial<Record<string, number>>): number | undefined {
  const override = overrides[method];
  if (override !== undefined) return override;
  if (method === POST_MESSAGE) return undefined;
  return DEFAULT_BUDGETS[method] ?? FALLBACK_BUDGET;
}

/**
 * A bucket that never lets more than `perMinute` calls into any minute: a burst of a tenth of the
 * budget, and the rest spread evenly (burst + refill over the window ≤ budget).
 */
export function bucketForBudget(perMinute: number, now: number): TokenBucket {
  const burst = Math.min(MAX_METHOD_BURST, Math.max(1, Math.floor(perMinute / 10)));
  const refillsPerWindow = Math.max(1, perMinute - burst);
  return new TokenBucket(burst, (WINDOW_MS + WINDOW_MARGIN_MS) / refillsPerWindow, now);
}

export function checkBudgets(budgets: Partial<Record<string, number>>): void {
  for (const [method, budget] of Object.entries(budgets)) {
    if (budget !== undefined && !(Number.isFinite(budget) && budget >= 1)) {
      throw new RangeError(`outbox budget for ${method} must be a number of calls per minute ≥ 1`);
    }
  }
}
