import { bucketForBudget, budgetFor } from './budgets.js';
import type { CallJob, EditJob, PostJob } from './jobs.js';
import { MethodQueue } from './method-queue.js';
import { TokenBucket } from './token-bucket.js';
import type { SlackCaller } from './web-api.js';

/** The posts of one channel: strictly in order, one on the wire at a time, paced by `bucket`. */
export interface ChannelLane {
  channel: string;
  /** Waiting posts; the head is the one being paced, queued, sent or retried. */
  posts: PostJob[];
  bucket: TokenBucket;
  /** The head is on its way (paced, queued, sending or waiting to retry). */
  busy: boolean;
}

/** At most one edit of a message on the wire and one waiting behind it. */
export interface EditSlot {
  inFlight?: EditJob;
  pending?: EditJob;
}

export interface WorkspaceLimits {
  budgets: Partial<Record<string, number>>;
  channelIntervalMs: number;
  channelBurst: number;
}

/** Everything the outbox keeps for one workspace: Slack counts limits per workspace. */
export class Workspace {
  readonly queues = new Map<string, MethodQueue>();
  readonly lanes = new Map<string, ChannelLane>();
  readonly edits = new Map<string, EditSlot>();
  readonly calls = new Set<CallJob>();
  private caller: SlackCaller | undefined;

  constructor(
    readonly teamId: string,
    private readonly clientFor: (teamId: string) => SlackCaller,
    private readonly limits: WorkspaceLimits,
  ) {}

  client(): SlackCaller {
    this.caller ??= this.clientFor(this.teamId);
    return this.caller;
  }

  queue(method: string, now: number): MethodQueue {
    let queue = this.queues.get(method);
    if (queue === undefined) {
      const budget = budgetFor(method, this.limits.budgets);
      queue = new MethodQueue(budget === undefined ? undefined : bucketForBudget(budget, now));
      this.queues.set(method, queue);
    }
    return queue;
  }

  lane(channel: string, now: number): ChannelLane {
    let lane = this.lanes.get(channel);
    if (lane === undefined) {
      const { channelBurst, channelIntervalMs } = this.limits;
      lane = {
        channel,
        posts: [],
        bucket: new TokenBucket(channelBurst, channelIntervalMs, now),
        busy: false,
      };
      this.lanes.set(channel, lane);
    }
    return lane;
  }

  slot(key: string): EditSlot {
    let slot = this.edits.get(key);
    if (slot === undefined) {
      slot = {};
      this.edits.set(key, slot);
    }
    return slot;
  }

  /** Forgets a lane with nothing to send once its pacing no longer matters (bucket full again). */
  forgetIdleLane(lane: ChannelLane, now: number): void {
    if (!lane.busy && lane.posts.length === 0 && lane.bucket.isFull(now)) this.lanes.delete(lane.channel);
  }
}
