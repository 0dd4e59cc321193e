/** Grid points closer than this to a time count as that time (floating-point sums of intervals). */
const EPSILON_MS = 1e-6;

/**
 * When a tail message may be edited: on a grid of `intervalMs`, and at least `intervalMs` after the
 * previous edit. Each tail's grid has a random phase, so that many tails that changed at the same
 * moment (a build matrix starting, a process taking over many follows) fall due spread over the
 * interval instead of all together, and the outbox gets an even flow of edits rather than a burst
 * every interval. An edit may also go off the grid (`sent` at any time, e.g. the first one, showing
 * what REST had); the next one then waits for the first grid point an interval later.
 */
export class EditSchedule {
  readonly #intervalMs: number;
  readonly #phase: number;
  /** No edit before this. */
  #earliest = Number.NEGATIVE_INFINITY;

  constructor(intervalMs: number, now: number, random: () => number = Math.random) {
    this.#intervalMs = intervalMs;
    this.#phase = now + random() * intervalMs;
  }

  /** The time the next edit may go, asked at `now`: the first grid point allowed. */
  nextAt(now: number): number {
    const from = Math.max(now, this.#earliest);
    const slots = Math.ceil((from - this.#phase) / this.#intervalMs - EPSILON_MS / this.#intervalMs);
    return this.#phase + slots * this.#intervalMs;
  }

  /** An edit went at `at` (the time `nextAt` gave, however late its timer fired, or any time). */
  sent(at: number): void {
    this.#earliest = at + this.#intervalMs;
  }
}
