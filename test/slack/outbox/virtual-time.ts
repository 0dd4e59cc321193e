import { setImmediate as nextTurn } from 'node:timers/promises';

interface Sleeper {
  at: number;
  seq: number;
  resolve: () => void;
}

/**
 * A clock the test owns, shared by the outbox (`now`, `sleep`) and the fake Slack (`now`). Time
 * moves only while nothing is on the wire, straight to the next timer: Slack's limits then hold
 * exactly (no network jitter in the counts), and minutes of pacing take milliseconds.
 */
export class VirtualClock {
  private nowMs: number;
  private sleepers: Sleeper[] = [];
  private seq = 0;

  constructor(startMs = 1_700_000_000_000) {
    this.nowMs = startMs;
  }

  readonly now = (): number => this.nowMs;

  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const sleeper: Sleeper = { at: this.nowMs + Math.max(0, ms), seq: ++this.seq, resolve };
      this.sleepers.push(sleeper);
      signal?.addEventListener(
        'abort',
        () => {
          this.sleepers = this.sleepers.filter((s) => s !== sleeper);
          resolve();
        },
        { once: true },
      );
    });

  /** Timers still waiting (the outbox's alarm, drain timeouts, the test's own sleeps). */
  pendingTimers(): number {
    return this.sleepers.length;
  }

  /**
   * Runs until `task` settles. Whenever `isBusy()` has been false for two event-loop turns (no
   * call on the wire, nothing left to run), time jumps to the earliest timer.
   */
  async run<T>(task: Promise<T>, isBusy: () => boolean, realLimitMs = 20_000): Promise<T> {
    let settled = false;
    task.then(
      () => {
        settled = true;
      },
      () => {
        settled = true;
      },
    );
    const deadline = Date.now() + realLimitMs;
    let idleTurns = 0;
    while (!settled) {
      if (Date.now() > deadline) {
        throw new Error(`virtual time: the task did not settle within ${realLimitMs} ms of real time`);
      }
      await nextTurn();
      if (settled || isBusy()) {
        idleTurns = 0;
        continue;
      }
      idleTurns += 1;
      if (idleTurns >= 2) {
        idleTurns = 0;
        this.wakeNext();
      }
    }
    return task;
  }

  private wakeNext(): void {
    const next = this.sleepers.reduce<Sleeper | undefined>(
      (first, s) =>
        first === undefined || s.at < first.at || (s.at === first.at && s.seq < first.seq) ? s : first,
      undefined,
    );
    if (next === undefined) return;
    this.nowMs = Math.max(this.nowMs, next.at);
    const due = this.sleepers.filter((s) => s.at <= this.nowMs).sort((a, b) => a.at - b.at || a.seq - b.seq);
    this.sleepers = this.sleepers.filter((s) => s.at > this.nowMs);
    for (const sleeper of due) sleeper.resolve();
  }
}
