import type { webApi } from '@slack/bolt';
import type { Block } from '../reply.js';
import type { ErrorTarget } from './errors.js';
import type { PostedMessage, Priority } from './types.js';
import type { ChannelLane, Workspace } from './workspace.js';

/** 0 (high) goes before 1 (low). */
export type Rank = 0 | 1;

export function rankOf(priority: Priority): Rank {
  return priority === 'high' ? 0 : 1;
}

export interface Waiter<T> {
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

/**
 * `queued`: in its method's queue, waiting for a token. `held`: waiting for something else
 * (channel pacing, a retry delay, an edit of the same message on the wire). `sending`: in flight.
 */
export type JobState = 'queued' | 'held' | 'sending';

interface JobBase {
  workspace: Workspace;
  method: string;
  rank: Rank;
  /** Order among jobs of one rank, lower first; a job re-queued after a 429 keeps it (front). */
  seq: number;
  /** Bumped each time the job enters a method queue, so older queue entries for it are ignored. */
  ticket: number;
  state: JobState;
  queuedAt: number;
  /** Calls made so far. */
  attempts: number;
  /** Transient failures so far (429s are not counted: they never give up). */
  failures: number;
}

export interface PostJob extends JobBase {
  kind: 'post';
  lane: ChannelLane;
  channel: string;
  text: string;
  blocks: Block[] | undefined;
  threadTs: string | undefined;
  waiter: Waiter<PostedMessage>;
}

export interface EditJob extends JobBase {
  kind: 'edit';
  key: string;
  channel: string;
  ts: string;
  text: string;
  blocks: Block[] | undefined;
  final: boolean;
  /** Every caller whose edit was folded into this one. */
  waiters: Waiter<void>[];
}

export interface CallJob extends JobBase {
  kind: 'call';
  args: Record<string, unknown>;
  waiter: Waiter<webApi.WebAPICallResult>;
}

export type Job = PostJob | EditJob | CallJob;

/**
 * Folds `newer` into `older`, which keeps its place in the queue: the newer content wins, except
 * that a final edit is never replaced by a non-final one. Returns whether the rank went up.
 */
export function absorbEdit(older: EditJob, newer: EditJob): boolean {
  if (!older.final || newer.final) {
    older.text = newer.text;
    older.blocks = newer.blocks;
  }
  older.final = older.final || newer.final;
  older.waiters.push(...newer.waiters);
  older.queuedAt = Math.min(older.queuedAt, newer.queuedAt);
  const raised = newer.rank < older.rank;
  if (raised) older.rank = newer.rank;
  return raised;
}

/** Where a job was going, for its error. */
export function targetOf(job: Job): ErrorTarget {
  return {
    teamId: job.workspace.teamId,
    method: job.method,
    channel: job.kind === 'call' ? undefined : job.channel,
    ts: job.kind === 'edit' ? job.ts : undefined,
  };
}
