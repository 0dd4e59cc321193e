/**
 * Exponential delays with jitter: each `next()` is between half and all of the current step, and
 * the step doubles up to `maxMs`. The jitter keeps several replicas that lost the same server from
 * coming back in lockstep.
 */
export class Backoff {
  #step: number;

  constructor(
    private readonly minMs: number,
    private readonly maxMs: number,
    private readonly random: () => number = Math.random,
  ) {
    this.#step = minMs;
  }

  next(): number {
    const step = this.#step;
    this.#step = Math.min(step * 2, this.maxMs);
    return Math.round(step / 2 + (step / 2) * this.random());
  }

  reset(): void {
    this.#step = this.minMs;
  }
}
