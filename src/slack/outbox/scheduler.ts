import type { Job } from './jobs.js';
import type { MethodQueue } from './method-queue.js';
import { MinHeap } from './min-heap.js';

interface Timer {
  at: number;
  seq: number;
  run: () => void;
}

export interface SchedulerHooks {
  now: () => number;
  sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Last checks before a job is sent (channel pacing); false when the job was held back again. */
  admit: (job: Job, now: number) => boolean;
  send: (job: Job) => void;
}

/**
 * Decides when things happen. Jobs wait in method queues; delayed steps (channel pacing, retry
 * delays) wait in one timer heap. One pump releases whatever may go now, then arms a single
 * alarm for the earliest next moment — so the outbox holds at most one timer, and none when
 * there is nothing to wait for.
 */
export class Scheduler {
  private readonly timers = new MinHeap<Timer>((a, b) => (a.at !== b.at ? a.at < b.at : a.seq < b.seq));
  private readonly active = new Set<MethodQueue>();
  private timerSeq = 0;
  private pumpQueued = false;
  private alarm: { at: number; controller: AbortController } | undefined;
  private stopped = false;

  constructor(private readonly hooks: SchedulerHooks) {}

  enqueue(queue: MethodQueue, job: Job): void {
    if (this.stopped) return;
    queue.push(job);
    this.active.add(queue);
    this.kick();
  }

  /** Runs `step` at clock time `at` (or soon after). */
  at(at: number, step: () => void): void {
    if (this.stopped) return;
    this.timers.push({ at, seq: ++this.timerSeq, run: step });
    this.kick();
  }

  /** Asks for a pump once the current synchronous work is done (many changes, one pump). */
  kick(): void {
    if (this.pumpQueued || this.stopped) return;
    this.pumpQueued = true;
    queueMicrotask(() => {
      this.pumpQueued = false;
      this.pump();
    });
  }

  stop(): void {
    this.stopped = true;
    this.timers.clear();
    for (const queue of this.active) queue.clear();
    this.active.clear();
    this.cancelAlarm();
  }

  private pump(): void {
    if (this.stopped) return;
    const now = this.hooks.now();
    for (let timer = this.timers.peek(); timer !== undefined && timer.at <= now; timer = this.timers.peek()) {
      this.timers.pop();
      timer.run();
    }
    let wake = Number.POSITIVE_INFINITY;
    for (const queue of this.active) {
      const openAt = this.release(queue, now);
      if (openAt === undefined) this.active.delete(queue);
      else wake = Math.min(wake, openAt);
    }
    wake = Math.min(wake, this.timers.peek()?.at ?? Number.POSITIVE_INFINITY);
    this.setAlarm(wake, now);
  }

  /** Sends what the queue allows now; returns when it may send again, or undefined when empty. */
  private release(queue: MethodQueue, now: number): number | undefined {
    for (;;) {
      if (queue.peek() === undefined) return undefined;
      const openAt = queue.openAt(now);
      if (openAt > now) return openAt;
      const job = queue.shift();
      if (job === undefined || !this.hooks.admit(job, now)) continue;
      queue.take(now);
      this.hooks.send(job);
    }
  }

  private setAlarm(wake: number, now: number): void {
    if (wake === Number.POSITIVE_INFINITY) {
      this.cancelAlarm();
      return;
    }
    if (this.alarm !== undefined && this.alarm.at <= wake) return;
    this.cancelAlarm();
    const controller = new AbortController();
    this.alarm = { at: wake, controller };
    const fire = () => {
      if (controller.signal.aborted) return;
      this.alarm = undefined;
      this.pump();
    };
    this.hooks.sleep(Math.max(0, wake - now), controller.signal).then(fire, fire);
  }

  private cancelAlarm(): void {
    this.alarm?.controller.abort();
    this.alarm = undefined;
  }
}
