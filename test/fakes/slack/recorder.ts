/**
 * An append-only list that tests can wait on: `waitFor` resolves with the first item, already
 * recorded or still to come, that matches, or rejects after a timeout naming what was seen.
 */
export class Recorder<T> {
  readonly items: T[] = [];
  private readonly waiters = new Set<{ match: (item: T) => boolean; settle: (item: T) => void }>();
  private readonly stoppers = new Set<(error: Error) => void>();

  constructor(private readonly describe: (item: T) => string) {}

  push(item: T): void {
    this.items.push(item);
    for (const waiter of [...this.waiters]) {
      if (waiter.match(item)) waiter.settle(item);
    }
  }

  clear(): void {
    this.items.length = 0;
  }

  waitFor(what: string, match: (item: T) => boolean, timeoutMs: number): Promise<T> {
    const found = this.items.find(match);
    if (found !== undefined) return Promise.resolve(found);
    return new Promise<T>((resolve, reject) => {
      const stop = (error: Error) => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
        this.stoppers.delete(stop);
        reject(error);
      };
      const waiter = {
        match,
        settle: (item: T) => {
          clearTimeout(timer);
          this.waiters.delete(waiter);
          this.stoppers.delete(stop);
          resolve(item);
        },
      };
      const timer = setTimeout(() => {
        const seen = this.items.map(this.describe).join(', ') || 'nothing';
        stop(new Error(`${what} did not happen within ${timeoutMs} ms; seen so far: ${seen}`));
      }, timeoutMs);
      this.waiters.add(waiter);
      this.stoppers.add(stop);
    });
  }

  /** Rejects every pending wait (the fake is closing). */
  abort(reason: string): void {
    for (const stop of [...this.stoppers]) stop(new Error(reason));
  }
}
