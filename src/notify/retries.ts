import type { Logger } from '../log.js';
import type { NotifyState } from '../store/notify-state.js';
import type { BuildSnapshot } from './snapshot.js';

export interface RetryTiming {
  /** Waits before each retry; the last one repeats. */
  delaysMs: number[];
  /** Retries stop this long after the first failure. */
  giveUpAfterMs: number;
  /** How often the notifications other (stopped) replicas left pending are looked at; 0: never. */
  sweepIntervalMs: number;
}

export interface RetriesDeps {
  state: NotifyState;
  logger: Logger;
  timing: RetryTiming;
  now: () => Date;
  /** Brings every message of the build to this state (or a newer one it knows); false on a transient failure. */
  deliver: (snapshot: BuildSnapshot) => Promise<boolean>;
}

interface Scheduled {
  since: number;
  attempt: number;
  timer: NodeJS.Timeout | undefined;
  snapshot: BuildSnapshot;
}

/**
 * Notifications that failed for a reason that passes (Slack or Redis unreachable after the
 * outbox's own retries, a full queue, a shutdown) are tried again until they get through, so a
 * final state is never lost. Each one is also written to Redis (`notify-pending`), so that a
 * notification a stopped process still owed is delivered by the next one that starts (or by any
 * replica's periodic sweep). Delivery is idempotent, so two replicas retrying the same build cost
 * an edit at most, never a second message.
 */
export class Retries {
  private readonly scheduled = new Map<string, Scheduled>();
  /** Retries and sweeps under way, awaited by `close`. */
  private readonly running = new Set<Promise<void>>();
  private sweeper: NodeJS.Timeout | undefined;
  private closed = false;

  constructor(private readonly deps: RetriesDeps) {
    const { sweepIntervalMs } = deps.timing;
    if (sweepIntervalMs > 0) {
      this.sweeper = setInterval(() => this.track(this.sweep()), sweepIntervalMs);
      this.sweeper.unref();
    }
  }

  /** Tries the build again later (with the newest state known by then); resolves once that is saved. */
  async schedule(buildKey: string, snapshot: BuildSnapshot): Promise<void> {
    if (this.closed) return;
    const now = this.deps.now().getTime();
    const entry = this.scheduled.get(buildKey) ?? { since: now, attempt: 0, timer: undefined, snapshot };
    entry.snapshot = snapshot;
    this.scheduled.set(buildKey, entry);
    if (entry.timer !== undefined) return;
    const { delaysMs, giveUpAfterMs } = this.deps.timing;
    if (now - entry.since > giveUpAfterMs) {
      this.deps.logger.error(
        { buildKey },
        'notifier: giving up on a notification after retrying it for long',
      );
      await this.settled(buildKey).catch((error: unknown) => this.warnPendingLeft(error, buildKey));
      return;
    }
    const delay = delaysMs[Math.min(entry.attempt, delaysMs.length - 1)] ?? 60_000;
    entry.attempt += 1;
    entry.timer = setTimeout(() => this.track(this.fire(buildKey)), delay);
    entry.timer.unref();
    await this.deps.state
      .addPending(buildKey, { since: new Date(entry.since).toISOString(), snapshot })
      .catch((error: unknown) =>
        this.deps.logger.warn({ err: error, buildKey }, 'notifier: could not save a pending notification'),
      );
  }

  /** The build got through: forget its retry, here and in Redis. */
  async settled(buildKey: string): Promise<void> {
    const entry = this.scheduled.get(buildKey);
    if (entry === undefined) return;
    if (entry.timer !== undefined) clearTimeout(entry.timer);
    this.scheduled.delete(buildKey);
    await this.deps.state.removePending(buildKey);
  }

  /** Takes over the notifications left pending in Redis that this process is not retrying. */
  async sweep(): Promise<void> {
    if (this.closed) return;
    try {
      for (const [buildKey, pending] of await this.deps.state.pending()) {
        if (this.scheduled.has(buildKey) || this.closed) continue;
        const since = Date.parse(pending.since);
        this.scheduled.set(buildKey, { since, attempt: 0, timer: undefined, snapshot: pending.snapshot });
        await this.fire(buildKey);
      }
    } catch (error) {
      this.deps.logger.warn({ err: error }, 'notifier: could not look at pending notifications');
    }
  }

  /** Stops retrying and sweeping; resolves once the retries under way have ended. */
  async close(): Promise<void> {
    this.closed = true;
    if (this.sweeper !== undefined) clearInterval(this.sweeper);
    for (const entry of this.scheduled.values()) if (entry.timer !== undefined) clearTimeout(entry.timer);
    this.scheduled.clear();
    await Promise.all(this.running);
  }

  /** Starts the initial sweep (notifications stopped processes still owed). */
  start(): void {
    this.track(this.sweep());
  }

  private track(work: Promise<void>): void {
    const tracked: Promise<void> = work
      .catch((error: unknown) => this.deps.logger.error({ err: error }, 'notifier: a retry failed'))
      .finally(() => this.running.delete(tracked));
    this.running.add(tracked);
  }

  private async fire(buildKey: string): Promise<void> {
    const entry = this.scheduled.get(buildKey);
    if (entry === undefined || this.closed) return;
    entry.timer = undefined;
    let delivered = false;
    try {
      delivered = await this.deps.deliver(entry.snapshot);
    } catch (error) {
      this.deps.logger.warn({ err: error, buildKey }, 'notifier: a retried notification failed');
    }
    if (this.closed) return;
    if (delivered)
      await this.settled(buildKey).catch((error: unknown) => this.warnPendingLeft(error, buildKey));
    else this.schedule(buildKey, entry.snapshot);
  }

  /** A delivered notification stays listed in Redis: some replica's sweep delivers it once more (an edit at most). */
  private warnPendingLeft(error: unknown, buildKey: string): void {
    this.deps.logger.warn({ err: error, buildKey }, 'notifier: could not remove a pending notification');
  }
}
