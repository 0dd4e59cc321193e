/** Floating-point refill arithmetic must not leave a token at 0.9999999 when it is due. */
const EPSILON = 1e-9;
/** …nor turn a wait of exactly 1 ms into 1.0000000000000009 ms, rounded up to 2. */
const EPSILON_MS = 1e-6;

/**
 * A token bucket on an injected clock: holds up to `capacity` tokens, gains one every `msPerToken`.
 * A call may go when a token is there; taking it is a separate step so that a caller can check
 * several gates before committing to any of them.
 */
export class TokenBucket {
  private tokens: number;
  private updatedAt: number;

  constructor(
    readonly capacity: number,
    readonly msPerToken: number,
    now: number,
  ) {
    this.tokens = capacity;
    this.updatedAt = now;
  }

  /** The earliest time (≥ now) a token is available. */
  readyAt(now: number): number {
    this.refill(now);
    if (this.tokens >= 1 - EPSILON) return now;
    return now + Math.ceil((1 - this.tokens) * this.msPerToken - EPSILON_MS);
  }

  take(now: number): void {
    this.refill(now);
    this.tokens -= 1;
  }

  /** Forgets saved-up tokens, e.g. after Slack said 429 although we thought one was there. */
  empty(now: number): void {
    this.refill(now);
    this.tokens = Math.min(this.tokens, 0);
  }

  isFull(now: number): boolean {
    this.refill(now);
    return this.tokens >= this.capacity - EPSILON;
  }

  private refill(now: number): void {
    if (now <= this.updatedAt) return;
    this.tokens = Math.min(this.capacity, this.tokens + (now - this.updatedAt) / this.msPerToken);
    this.updatedAt = now;
  }
}
