import type { Job, Rank } from './jobs.js';
import { MinHeap } from './min-heap.js';
import type { TokenBucket } from './token-bucket.js';

interface Entry {
  job: Job;
  ticket: number;
  rank: Rank;
  seq: number;
}

const entryFirst = (a: Entry, b: Entry) => (a.rank !== b.rank ? a.rank < b.rank : a.seq < b.seq);

/**
 * The requests for one method in one workspace waiting for a call: high rank first, then in
 * order. A call may go when the method is not paused by a 429 and its budget has a token.
 */
export class MethodQueue {
  private readonly entries = new MinHeap<Entry>(entryFirst);
  private pausedUntil = 0;

  constructor(private readonly bucket: TokenBucket | undefined) {}

  push(job: Job): void {
    job.ticket += 1;
    job.state = 'queued';
    this.entries.push({ job, ticket: job.ticket, rank: job.rank, seq: job.seq });
  }

  /** The next job still waiting here (entries of jobs that moved on are dropped). */
  peek(): Job | undefined {
    for (;;) {
      const top = this.entries.peek();
      if (top === undefined) return undefined;
      if (top.ticket === top.job.ticket && top.job.state === 'queued') return top.job;
      this.entries.pop();
    }
  }

  shift(): Job | undefined {
    const job = this.peek();
    this.entries.pop();
    return job;
  }

  /** When the next call may go (≥ now). */
  openAt(now: number): number {
    return Math.max(now, this.pausedUntil, this.bucket?.readyAt(now) ?? now);
  }

  take(now: number): void {
    this.bucket?.take(now);
  }

  /** Slack said 429: no call of this method before `until`, and no saved-up burst after it. */
  pause(until: number, now: number): void {
    this.pausedUntil = Math.max(this.pausedUntil, until);
    this.bucket?.empty(now);
  }

  clear(): void {
    this.entries.clear();
  }
}
