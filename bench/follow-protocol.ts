/** Messages between the benchmark's world (bench/follow.ts) and the app process it measures. */

export interface FollowTarget {
  jobId: number;
  channelId: string;
}

/** World → app. */
export type ToApp =
  | { type: 'follow'; targets: FollowTarget[] }
  /** Starts the measured window: CPU time is counted from here. */
  | { type: 'mark' }
  | { type: 'report' }
  | { type: 'stop' };

export interface AppReport {
  /** CPU time used since `mark`, in ms. */
  cpuUserMs: number;
  cpuSystemMs: number;
  /** Wall time since `mark`, in ms. */
  wallMs: number;
  /** Peak resident set size of the app process over its whole life, in MB. */
  peakRssMb: number;
  /** The highest RSS sampled (every 250 ms) since `mark`, in MB. */
  windowPeakRssMb: number;
  /** RSS now, in MB, and the V8 heap in use. */
  rssMb: number;
  heapUsedMb: number;
  heapTotalMb: number;
  externalMb: number;
  followed: number;
  /** The app's event loop delay since `mark`, in ms. */
  eventLoopDelayP99Ms: number;
  /** The worst seen, sampled every 250 ms since `mark`: edits waiting and calls on the wire. */
  peakQueued: number;
  peakInFlight: number;
  peakOldestQueuedMs: number;
  outbox: { sent: Record<string, number>; rateLimited: number; mergedEdits: number; oldestQueuedMs: number };
}

/** App → world. */
export type FromApp =
  | { type: 'ready' }
  | { type: 'following'; started: number; failed: string[]; ms: number }
  | { type: 'report'; report: AppReport };
