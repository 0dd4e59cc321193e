import type { Deployment } from '../config.js';
import type { Actor } from '../ops/actor.js';
import type { Services } from '../services.js';
import type { FollowedJobView } from '../slack/views/follow.js';
import type { TailPlacement } from './follow-placement.js';
import type { FollowTiming } from './followed-job.js';

/** The public shapes of `LogFollower` (log-follower.ts). */

export type FollowerServices = Pick<
  Services,
  'config' | 'logger' | 'kv' | 'ci' | 'accounts' | 'outbox' | 'realtime' | 'buildMessages' | 'label'
>;

export interface FollowerTiming extends FollowTiming {
  /** Followed jobs one process holds at most (MAX_FOLLOWED_JOBS). */
  maxFollowedJobs: number;
  /** A follow's lease (LEASE_TTL_MS): when its owner stops renewing, another process continues it. */
  leaseTtlMs: number;
  renewIntervalMs: number;
  /** How often follows whose owner vanished are looked for (and once at `start`). */
  scanIntervalMs: number;
  /** How often REST is asked whether followed jobs finished (a safety net under realtime). */
  jobCheckIntervalMs: number;
}

export interface LogFollowerOptions {
  /** This process in lease keys; default hostname, pid and a random part. */
  ownerId?: string;
  timing?: Partial<FollowerTiming>;
}

export interface FollowRequest {
  deployment: Deployment;
  jobId: number;
  /** Who asks: their linked token reads the job, and keeps reading it while it is followed. */
  actor: Actor;
  channelId: string;
  /** Thread the tail under this message; default the build's message in the channel, or a new line. */
  threadTs?: string;
}

export type FollowOutcome =
  | { kind: 'started'; view: FollowedJobView; placement: TailPlacement }
  | {
      kind: 'already';
      view: FollowedJobView;
      /** Where the existing tail is; absent while it is still being posted. */
      placement?: TailPlacement;
    }
  | { kind: 'finished'; view: FollowedJobView; state: string }
  | { kind: 'at_capacity'; max: number };

/** Who asks to stop following which job in which channel. */
export type UnfollowRequest = Omit<FollowRequest, 'threadTs'>;

export type UnfollowOutcome = { kind: 'stopping'; view: FollowedJobView } | { kind: 'not_followed' };
