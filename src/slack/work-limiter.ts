/**
 * Bounds the work that runs after acknowledgements (CI calls, rendering, answers). Slack waits at
 * most 3 s for an ack, and an ack waits for the event loop: with unbounded concurrency an overloaded
 * process would interleave thousands of half-done commands and acknowledge late. With a bound, new
 * requests are still acknowledged at once; their work waits its turn, and past a queue limit the
 * user is told to try again instead of waiting minutes.
 */
export class WorkLimiter {
  #running = 0;
  readonly #queue: Array<() => Promise<void>> = [];

  constructor(
    private readonly maxRunning: number,
    private readonly maxQueued: number,
  ) {}

  get running(): number {
    return this.#running;
  }

  get queued(): number {
    return this.#queue.length;
  }

  /** Starts `work` now or when a slot frees; false (and `work` never runs) when the queue is full. */
  submit(work: () => Promise<void>): boolean {
    if (this.#running < this.maxRunning) {
      this.#start(work);
      return true;
    }
    if (this.#queue.length >= this.maxQueued) return false;
    this.#queue.push(work);
    return true;
  }

  #start(work: () => Promise<void>): void {
    this.#running++;
    // Work reports its own failures to the user; a rejection here would be a bug, not lost work.
    void work()
      .catch(() => undefined)
      .finally(() => {
        this.#running--;
        const next = this.#queue.shift();
        if (next) this.#start(next);
      });
  }
}
