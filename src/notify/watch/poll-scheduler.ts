import type { Logger } from '../../log.js';

export interface PollSchedulerOptions {
  intervalMs: number;
  /** Polls running at once, at most. */
  concurrency: number;
  poll: (unit: string) => Promise<void>;
  logger: Logger;
  random?: () => number;
}

/**
 * When to poll each held unit: at once when it is taken (a repository taken over from a dead process
 * is checked without waiting), then at a random point of the next interval, then every `intervalMs`,
 * so thousands of repositories taken together do not keep polling in the same instant. Never two
 * polls of one unit at a time, at most `concurrency` at once. `pollSoon` moves units to the front
 * (after a realtime reconnect). One unref'd timer ticks while started.
 */
export class PollScheduler {
  readonly #due = new Map<string, number>();
  /** Units taken but not polled yet: their second poll is placed at random in the interval. */
  readonly #fresh = new Set<string>();
  readonly #running = new Map<string, Promise<void>>();
  readonly #tickMs: number;
  #timer: NodeJS.Timeout | undefined;

  constructor(private readonly options: PollSchedulerOptions) {
    this.#tickMs = Math.min(250, Math.max(5, Math.floor(options.intervalMs / 10)));
  }

  add(unit: string): void {
    if (this.#due.has(unit)) return;
    this.#due.set(unit, Date.now());
    this.#fresh.add(unit);
    this.#tick();
  }

  remove(unit: string): void {
    this.#due.delete(unit);
    this.#fresh.delete(unit);
  }

  has(unit: string): boolean {
    return this.#due.has(unit);
  }

  /** Polls these units (default: all) as soon as a slot is free. */
  pollSoon(units?: Iterable<string>): void {
    const now = Date.now();
    for (const unit of units ?? this.#due.keys()) if (this.#due.has(unit)) this.#due.set(unit, now);
    this.#tick();
  }

  start(): void {
    if (this.#timer) return;
    this.#timer = setInterval(() => this.#tick(), this.#tickMs);
    this.#timer.unref();
  }

  /** Stops ticking and waits for the polls under way. */
  async stop(): Promise<void> {
    clearInterval(this.#timer);
    this.#timer = undefined;
    await Promise.allSettled(this.#running.values());
  }

  #next(unit: string, due: number, now: number): number {
    const { intervalMs } = this.options;
    if (this.#fresh.delete(unit))
      return now + Math.floor((this.options.random ?? Math.random)() * intervalMs);
    return Math.max(due + intervalMs, now + intervalMs / 2);
  }

  /** Starts the most overdue polls that fit; also runs as soon as a poll ends, so no slot stays idle. */
  #tick(): void {
    const free = this.options.concurrency - this.#running.size;
    if (free <= 0 || !this.#timer) return;
    const now = Date.now();
    const due = [...this.#due]
      .filter(([unit, at]) => at <= now && !this.#running.has(unit))
      .sort((a, b) => a[1] - b[1])
      .slice(0, free);
    for (const [unit, at] of due) {
      this.#due.set(unit, this.#next(unit, at, now));
      const run = this.options
        .poll(unit)
        .catch((error: unknown) =>
          this.options.logger.warn({ err: error, unit }, 'a poll failed; retried next round'),
        )
        .finally(() => {
          this.#running.delete(unit);
          this.#tick();
        });
      this.#running.set(unit, run);
    }
  }
}
