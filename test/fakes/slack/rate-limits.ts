/**
 * Slack's per-method rate limits. Tiers count calls per method in a sliding minute;
 * chat.postMessage is limited per channel instead (about 1 per second, short bursts allowed),
 * modelled as a token bucket of 3 refilled at 1 per second.
 */
export type RateTier = 1 | 2 | 3 | 4 | 'per-channel' | 'none';

export const TIER_LIMITS_PER_MINUTE = { 1: 1, 2: 20, 3: 50, 4: 100 } as const;
export const POST_MESSAGE_BURST = 3;
export const POST_MESSAGE_PER_SECOND = 1;
const WINDOW_MS = 60_000;

export type RateDecision = { limited: false } | { limited: true; retryAfterSec: number };

interface Bucket {
  tokens: number;
  updatedAt: number;
}

export class RateLimiter {
  private readonly windows = new Map<string, number[]>();
  private readonly buckets = new Map<string, Bucket>();
  private readonly manual = new Map<string, { until: number; retryAfterSec: number }>();
  private readonly limitedCounts = new Map<string, number>();

  constructor(
    private readonly now: () => number,
    private readonly enforce: boolean,
    /** Per-method limits per minute that replace the tier's (a workspace granted more). */
    private readonly limits: Partial<Record<string, number>> = {},
  ) {}

  /** Decides one call; a call let through is counted against its window or bucket. */
  decide(method: string, tier: RateTier, channel: string): RateDecision {
    const decision = this.decideWithoutCounting(method, tier, channel);
    if (decision.limited) this.limitedCounts.set(method, (this.limitedCounts.get(method) ?? 0) + 1);
    return decision;
  }

  block(method: string, forMs: number, retryAfterSec: number): void {
    this.manual.set(method, { until: this.now() + forMs, retryAfterSec });
  }

  limitedCount(method?: string): number {
    if (method !== undefined) return this.limitedCounts.get(method) ?? 0;
    let total = 0;
    for (const count of this.limitedCounts.values()) total += count;
    return total;
  }

  reset(): void {
    this.windows.clear();
    this.buckets.clear();
    this.manual.clear();
    this.limitedCounts.clear();
  }

  private decideWithoutCounting(method: string, tier: RateTier, channel: string): RateDecision {
    const now = this.now();
    const manual = this.manual.get(method);
    if (manual !== undefined && now < manual.until)
      return { limited: true, retryAfterSec: manual.retryAfterSec };
    if (!this.enforce || tier === 'none') return { limited: false };
    if (tier === 'per-channel') return this.takeFromBucket(channel, now);
    return this.countInWindow(method, this.limits[method] ?? TIER_LIMITS_PER_MINUTE[tier], now);
  }

  private countInWindow(method: string, limit: number, now: number): RateDecision {
    const recent = this.windows.get(method) ?? [];
    this.windows.set(method, recent);
    // Calls are counted in arrival order, so the expired ones are at the front.
    let expired = 0;
    while (expired < recent.length && (recent[expired] ?? 0) <= now - WINDOW_MS) expired += 1;
    if (expired > 0) recent.splice(0, expired);
    const oldest = recent[0];
    if (recent.length >= limit && oldest !== undefined) {
      return { limited: true, retryAfterSec: Math.max(1, Math.ceil((oldest + WINDOW_MS - now) / 1000)) };
    }
    recent.push(now);
    return { limited: false };
  }

  private takeFromBucket(channel: string, now: number): RateDecision {
    const bucket = this.buckets.get(channel) ?? { tokens: POST_MESSAGE_BURST, updatedAt: now };
    const refilled = bucket.tokens + ((now - bucket.updatedAt) / 1000) * POST_MESSAGE_PER_SECOND;
    bucket.tokens = Math.min(POST_MESSAGE_BURST, refilled);
    bucket.updatedAt = now;
    this.buckets.set(channel, bucket);
    if (bucket.tokens < 1) {
      return {
        limited: true,
        retryAfterSec: Math.max(1, Math.ceil((1 - bucket.tokens) / POST_MESSAGE_PER_SECOND)),
      };
    }
    bucket.tokens -= 1;
    return { limited: false };
  }
}
