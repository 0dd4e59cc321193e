import { isFinished } from '../ci/schemas.js';
import type { Services } from '../services.js';
import { siteOf } from '../slack/deployments.js';
import { failureLogsMessage, notificationMessage } from '../slack/views/notification.js';
import { NotifyState } from '../store/notify-state.js';
import type { Subscription } from '../store/subscriptions.js';
import { classifyDeliveryFailure } from './delivery-errors.js';
import { FailureLogs } from './failure-logs.js';
import { classifyChange } from './filters.js';
import { KeyedLane } from './keyed-lane.js';
import { LatestBuilds, type LatestEntry } from './latest-builds.js';
import { ParentMessages } from './parent-messages.js';
import { Retries, type RetryTiming } from './retries.js';
import { type BuildSnapshot, buildKeyOf, historyOriginOf, isStale, snapshotOf } from './snapshot.js';
import { type ChannelTarget, channelTargets, directTargets, type Target } from './targets.js';
import type { BuildSink, BuildUpdate } from './types.js';

/**
 * The notifier: turns each build update from the watcher into Slack messages. See README.md for
 * the flow and the exactly-once mechanisms.
 */

export interface NotifierOptions {
  /** How long a claim to post a message (or a failure reply) holds. Default 10 minutes. */
  claimTtlMs?: number;
  /** Lines of each failed job's log in the failure reply. Default 30. */
  logLines?: number;
  /** Failed jobs whose logs the reply shows at most. Default 5. */
  maxLogJobs?: number;
  retry?: Partial<RetryTiming>;
  /** Builds whose newest state each process remembers. Default 5,000. */
  rememberedBuilds?: number;
}

export interface Notifier extends BuildSink {
  /**
   * Brings every message of the update's build to its state (or a newer one already seen):
   * posts, edits, failure replies, direct messages. Resolves when that is done, or when what
   * failed for a passing reason is scheduled for a retry. Rejects only for an unexpected error.
   */
  handle(update: BuildUpdate): Promise<void>;
  /**
   * Stops retries and the sweep, and resolves once those under way ended (call it before closing
   * the store and the outbox). Pending notifications stay in Redis for the next process.
   */
  close(): Promise<void>;
}

const DEFAULTS = {
  claimTtlMs: 10 * 60_000,
  logLines: 30,
  maxLogJobs: 5,
  rememberedBuilds: 5_000,
};
const DEFAULT_RETRY: RetryTiming = {
  delaysMs: [2_000, 10_000, 30_000, 60_000, 300_000],
  giveUpAfterMs: 24 * 60 * 60_000,
  sweepIntervalMs: 60_000,
};

export function createNotifier(services: Services, options: NotifierOptions = {}): Notifier {
  return new BuildNotifier(services, options);
}

interface Outcome {
  /** Something failed for a reason that passes: try again later. */
  transient: boolean;
  /** The update was older than what was already seen, so it settled nothing. */
  stale?: boolean;
  /** An unexpected error, rethrown to the caller after everything else was tried. */
  error?: unknown;
}

class BuildNotifier implements Notifier {
  private readonly state: NotifyState;
  private readonly latest: LatestBuilds;
  private readonly lanes = new KeyedLane();
  private readonly parents: ParentMessages;
  private readonly failureLogs: FailureLogs;
  private readonly retries: Retries;
  private readonly logger: Services['logger'];

  constructor(
    private readonly services: Services,
    options: NotifierOptions,
  ) {
    const settings = { ...DEFAULTS, ...withoutUndefined(options) };
    this.logger = services.logger.child({ component: 'notifier' });
    this.state = new NotifyState(services.kv);
    this.latest = new LatestBuilds(settings.rememberedBuilds);
    this.parents = new ParentMessages({
      outbox: services.outbox,
      buildMessages: services.buildMessages,
      state: this.state,
      latest: this.latest,
      render: (snapshot) => notificationMessage(this.viewInput(snapshot)),
      claimTtlMs: settings.claimTtlMs,
      logger: this.logger,
    });
    this.failureLogs = new FailureLogs({
      services,
      state: this.state,
      render: (snapshot, logs, notShown) =>
        failureLogsMessage({
          site: siteOf(this.services, snapshot.deployment),
          slug: snapshot.repo.slug,
          build: snapshot.build,
          logs,
          notShown,
        }),
      logLines: settings.logLines,
      maxLogJobs: settings.maxLogJobs,
      claimTtlMs: settings.claimTtlMs,
    });
    this.retries = new Retries({
      state: this.state,
      logger: this.logger,
      timing: { ...DEFAULT_RETRY, ...withoutUndefined(options.retry ?? {}) },
      now: services.clock,
      deliver: async (snapshot) => {
        const newest = this.latest.get(buildKeyOf(snapshot))?.snapshot ?? snapshot;
        return !(await this.process(newest)).transient;
      },
    });
    // Notifications a stopped process still owed.
    this.retries.start();
  }

  async handle(update: BuildUpdate): Promise<void> {
    const snapshot = snapshotOf(update);
    const key = buildKeyOf(snapshot);
    const outcome = await this.process(snapshot);
    if (outcome.transient) await this.retries.schedule(key, this.latest.get(key)?.snapshot ?? snapshot);
    else if (!outcome.stale) await this.retries.settled(key);
    if (outcome.error !== undefined) throw outcome.error;
  }

  async close(): Promise<void> {
    await this.retries.close();
  }

  private async process(snapshot: BuildSnapshot): Promise<Outcome> {
    let subscriptions: Subscription[];
    let entry: LatestEntry | undefined;
    let targets: Target[];
    try {
      subscriptions = await this.services.subscriptions.forRepo(snapshot.deployment, snapshot.repo.id);
      if (subscriptions.length === 0) return { transient: false };
      const key = buildKeyOf(snapshot);
      entry = await this.lanes.run(key, () => this.accept(key, snapshot));
      if (entry === undefined) return { transient: false, stale: true };
      targets = [
        ...channelTargets(entry.snapshot, subscriptions),
        ...(await directTargets(this.services, entry.snapshot, subscriptions)),
      ];
    } catch (error) {
      return this.failed(error, { build: snapshot.build.id });
    }
    const seen = entry;
    const results = await Promise.all(
      targets.map((target) =>
        this.deliver(target, seen).then(
          () => ({ transient: false }) as Outcome,
          (error: unknown) => this.failed(error, describeTarget(target, snapshot), target),
        ),
      ),
    );
    return {
      transient: results.some((r) => r.transient),
      error: results.find((r) => r.error !== undefined)?.error,
    };
  }

  /**
   * Takes the update as the build's newest state unless it is older than one already seen (here,
   * or by any replica: `notify-progress`), and records a finished build in its branch's history
   * (for `only:changes`). Runs one at a time per build, in the order updates arrived.
   */
  private async accept(key: string, snapshot: BuildSnapshot): Promise<LatestEntry | undefined> {
    const { deployment, build, repo } = snapshot;
    const current = this.latest.get(key);
    const news =
      !(current && isStale(current.snapshot.build, build)) &&
      (await this.state.advanceProgress(deployment, build.id, build, isStale));
    if (!news) {
      this.logger.debug({ key, state: build.state }, 'notifier: ignoring an older update');
      return undefined;
    }
    const origin = historyOriginOf(snapshot);
    if (!isFinished(build.state) || origin === undefined) return this.latest.put(key, snapshot);
    const previousState = await this.state.recordFinished(deployment, repo.id, origin, {
      number: build.number,
      buildId: build.id,
      state: build.state,
    });
    return this.latest.put(key, previousState === undefined ? snapshot : { ...snapshot, previousState });
  }

  private async deliver(target: Target, seen: LatestEntry): Promise<void> {
    const { deployment, build } = seen.snapshot;
    const channelId = target.kind === 'channel' ? target.channelId : target.userId;
    const slot = { deployment, buildId: build.id, teamId: target.teamId, channelId };
    const message = await this.parents.show(slot, seen, target.post);
    if (message === undefined || target.kind !== 'channel') return;
    const newest = this.latest.newest(buildKeyOf(seen.snapshot), seen).snapshot;
    await this.failureLogs.post(target, message, newest);
  }

  /** Logs a failure and decides what follows: a pause, a retry, or an error for the caller. */
  private async failed(error: unknown, context: Record<string, unknown>, target?: Target): Promise<Outcome> {
    const failure = classifyDeliveryFailure(error);
    const code = typeof error === 'object' && error !== null && 'code' in error ? error.code : undefined;
    switch (failure) {
      case 'channel_gone':
        if (target?.kind === 'channel') await this.pauseChannel(target, String(code));
        else this.logger.warn({ ...context, code }, 'notifier: cannot send the direct message');
        return { transient: false };
      case 'message_gone':
        this.logger.info({ ...context, code }, 'notifier: the build message is gone; not posting it again');
        return { transient: false };
      case 'transient':
        this.logger.warn({ ...context, code }, 'notifier: will retry a notification');
        return { transient: true };
      case 'posting_elsewhere':
        this.logger.debug(context, 'notifier: another replica is posting; will look again');
        return { transient: true };
      case 'refused':
        this.logger.error({ ...context, err: error }, 'notifier: Slack refused a notification');
        return { transient: false };
      default:
        // Not Slack's or Redis's doing: a bug, which a retry would only repeat.
        this.logger.error({ ...context, err: error }, 'notifier: a notification failed');
        return { transient: false, error };
    }
  }

  /** The app cannot post in the channel any more: its subscriptions pause (there is nobody to tell). */
  private async pauseChannel(target: ChannelTarget, code: string): Promise<void> {
    const { teamId, channelId } = target;
    this.logger.warn(
      { teamId, channelId, code },
      'notifier: cannot post in the channel; pausing its subscriptions',
    );
    for (const sub of target.subscriptions) {
      await this.services.subscriptions
        .pause(sub.id, `slack:${code}`)
        .catch((error: unknown) =>
          this.logger.error({ err: error, subscription: sub.id }, 'notifier: could not pause a subscription'),
        );
    }
  }

  private viewInput(snapshot: BuildSnapshot) {
    const { build, commit, jobs, previousState, repo } = snapshot;
    // Broken, fixed or still failing only when there is an earlier build to compare with.
    const change =
      isFinished(build.state) && previousState !== undefined
        ? classifyChange(build.state, previousState)
        : undefined;
    return { site: siteOf(this.services, snapshot.deployment), slug: repo.slug, build, commit, jobs, change };
  }
}

function describeTarget(target: Target, snapshot: BuildSnapshot): Record<string, unknown> {
  const where = target.kind === 'channel' ? { channel: target.channelId } : { user: target.userId };
  return { deployment: snapshot.deployment, build: snapshot.build.id, team: target.teamId, ...where };
}

function withoutUndefined<T extends object>(value: T): { [K in keyof T]: Exclude<T[K], undefined> } {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as {
    [K in keyof T]: Exclude<T[K], undefined>;
  };
}
