import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { Deployment } from '../config.js';
import type { Logger } from '../log.js';
import type { Services } from '../services.js';
import { Leases } from '../store/leases.js';
import type { Subscription } from '../store/subscriptions.js';
import type { BuildSink } from './types.js';
import { ChangeDetector } from './watch/change-detector.js';
import { WATCH_PURPOSES, type WatchPurpose } from './watch/context.js';
import { CreatorIdentities } from './watch/identities.js';
import { LeaseBalancer } from './watch/lease-balancer.js';
import { OwnerRefresher } from './watch/owner-refresh.js';
import { pollRepo } from './watch/poll-repo.js';
import { PollScheduler } from './watch/poll-scheduler.js';
import { Presence } from './watch/presence.js';
import { type ChannelWish, RealtimeFeed } from './watch/realtime-feed.js';
import { onRealtimeEvent, type RealtimeContext } from './watch/realtime-updates.js';
import { RepoWatch } from './watch/repo-watch.js';
import { type Creator, CreatorSessions, creatorKey } from './watch/sessions.js';
import { TokenPicker } from './watch/tokens.js';
import { loadWatched, unitKey, type WatchedRepo } from './watch/units.js';

const DAY_MS = 24 * 60 * 60 * 1000;

export interface WatcherOptions {
  /** This process's id in leases and heartbeats. Default: host, pid and a random part. */
  processId?: string;
  /** Default: NOTIFY_POLL_INTERVAL_MS. */
  pollIntervalMs?: number;
  /** Default: LEASE_TTL_MS. Leases and the heartbeat are renewed every third of it. */
  leaseTtlMs?: number;
  /** Owner subscriptions are listed again, and creators looked up again, every this many poll intervals. Default 10. */
  refreshEveryPolls?: number;
  /**
   * A build nobody announced yet that finished longer ago than this is history, not news (a
   * repository watched for the first time does not replay its past). Default: two poll intervals.
   */
  announceWindowMs?: number;
  /** How long a build's last announced signature and a repository's state are kept. Default 3 days. */
  seenTtlMs?: number;
  /** How long a change claim shared by all processes lives. Default 15 minutes. */
  onceTtlMs?: number;
  /** Polls running at once. Default 16. */
  pollConcurrency?: number;
  /** Listen to realtime events where the deployment sends them. Default true. */
  realtime?: boolean;
}

export interface WatcherStats {
  processId: string;
  /** Units (`deployment:repoId`) whose lease this process holds. */
  held: string[];
  liveProcesses: number;
  /** CI requests sent by the watcher, by purpose. */
  requests: Record<WatchPurpose, number>;
  updates: { poll: number; realtime: number };
  /** Polls finished (successfully or not). */
  polls: number;
  realtimeChannels: string[];
}

export interface BuildWatcher {
  readonly processId: string;
  /** Takes its share of the watched repositories and starts polling and listening. */
  start(): Promise<void>;
  /** Stops, waits for work under way, and releases its leases so another process takes over at once. */
  stop(): Promise<void>;
  stats(): WatcherStats;
}

/**
 * The build watcher: learns about builds of every subscribed repository and hands each new build or
 * change to `sink` once. Run one per app process; processes sharing a Redis split the repositories
 * between them (see src/notify/README.md, "The build watcher").
 */
export function createWatcher(
  services: Services,
  sink: BuildSink,
  options: WatcherOptions = {},
): BuildWatcher {
  return new Watcher(services, sink, options);
}

class Watcher implements BuildWatcher {
  readonly processId: string;
  readonly #services: Services;
  readonly #logger: Logger;
  readonly #roundMs: number;
  readonly #presence: Presence;
  readonly #balancer: LeaseBalancer;
  readonly #scheduler: PollScheduler;
  readonly #detector: ChangeDetector;
  readonly #tokens: TokenPicker;
  readonly #owners: OwnerRefresher;
  readonly #identities: CreatorIdentities;
  readonly #feed: RealtimeFeed | undefined;
  readonly #ctx: RealtimeContext;
  readonly #repos = new Map<string, RepoWatch>();
  readonly #requests = Object.fromEntries(WATCH_PURPOSES.map((p) => [p, 0])) as Record<WatchPurpose, number>;
  readonly #updates = { poll: 0, realtime: 0 };
  #polls = 0;
  #liveProcesses = 1;
  #started = false;
  #stopped = false;
  #roundTimer: NodeJS.Timeout | undefined;
  /** Below its share after the last round: the next one comes sooner, to take what others release. */
  #short = false;
  #round: Promise<void> | undefined;
  #realtimeSync: Promise<void> | undefined;

  constructor(services: Services, sink: BuildSink, options: WatcherOptions) {
    const pollIntervalMs = options.pollIntervalMs ?? services.config.notifyPollIntervalMs;
    const leaseTtlMs = options.leaseTtlMs ?? services.config.leaseTtlMs;
    const refreshMs = pollIntervalMs * (options.refreshEveryPolls ?? 10);
    const seenTtlMs = options.seenTtlMs ?? 3 * DAY_MS;
    this.processId = options.processId ?? `${hostname()}-${process.pid}-${randomBytes(4).toString('hex')}`;
    this.#services = services;
    this.#logger = services.logger.child({ component: 'watcher', processId: this.processId });
    this.#roundMs = Math.max(10, Math.floor(leaseTtlMs / 3));
    const count = (purpose: WatchPurpose) => {
      this.#requests[purpose] += 1;
      services.metrics.countWatchRequest(purpose);
    };
    const sessions = new CreatorSessions(services, Math.min(60_000, pollIntervalMs * 4));
    this.#detector = new ChangeDetector({
      kv: services.kv,
      sink,
      logger: this.#logger,
      metrics: services.metrics,
      seenTtlMs,
      onceTtlMs: options.onceTtlMs ?? 15 * 60 * 1000,
      announceWindowMs: options.announceWindowMs ?? 2 * pollIntervalMs,
      now: () => Date.now(),
      onEmitted: (update) => {
        this.#updates[update.source] += 1;
      },
    });
    this.#tokens = new TokenPicker({ services, sessions, logger: this.#logger, blindMs: refreshMs });
    this.#ctx = {
      services,
      logger: this.#logger,
      detector: this.#detector,
      tokens: this.#tokens,
      count,
      seenTtlMs,
      sessions,
      held: (deployment, repoId) => this.#held(unitKey(deployment, repoId)),
    };
    this.#presence = new Presence(services.kv, this.processId, leaseTtlMs);
    this.#balancer = new LeaseBalancer({
      leases: new Leases(services.kv, this.processId),
      presence: this.#presence,
      processId: this.processId,
      ttlMs: leaseTtlMs,
    });
    this.#scheduler = new PollScheduler({
      intervalMs: pollIntervalMs,
      concurrency: options.pollConcurrency ?? 16,
      poll: (unit) => this.#poll(unit),
      logger: this.#logger,
    });
    this.#owners = new OwnerRefresher(this.#ctx, { kv: services.kv, sessions, intervalMs: refreshMs });
    this.#identities = new CreatorIdentities({ sessions, refreshMs, count, logger: this.#logger });
    this.#feed =
      options.realtime === false
        ? undefined
        : new RealtimeFeed({
            hub: services.realtime,
            sessions,
            onEvent: (wish, event, data) => onRealtimeEvent(this.#ctx, wish, event, data),
            onReconnected: (deployment) => this.#reconnected(deployment),
            retryMs: refreshMs,
            logger: this.#logger,
          });
  }

  async start(): Promise<void> {
    if (this.#started) return;
    this.#started = true;
    await this.#runRound();
    this.#scheduler.start();
    this.#scheduleRound();
  }

  async stop(): Promise<void> {
    if (!this.#started || this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#roundTimer);
    await this.#round;
    await this.#realtimeSync;
    await this.#scheduler.stop();
    await this.#feed?.close();
    await this.#detector.queue.drain();
    await this.#balancer
      .releaseAll()
      .catch((error: unknown) =>
        this.#logger.warn({ err: error }, 'could not release leases; they lapse by themselves'),
      );
    await this.#presence
      .leave()
      .catch((error: unknown) => this.#logger.warn({ err: error }, 'could not remove heartbeat'));
    this.#repos.clear();
    this.#services.metrics.setWatchLeases(0, this.#liveProcesses);
  }

  stats(): WatcherStats {
    return {
      processId: this.processId,
      held: this.#balancer.held,
      liveProcesses: this.#liveProcesses,
      requests: { ...this.#requests },
      updates: { ...this.#updates },
      polls: this.#polls,
      realtimeChannels: this.#feed?.channels ?? [],
    };
  }

  #scheduleRound(): void {
    if (this.#stopped) return;
    const delay = this.#short ? Math.max(10, Math.floor(this.#roundMs / 4)) : this.#roundMs;
    this.#roundTimer = setTimeout(() => {
      void this.#runRound().then(() => this.#scheduleRound());
    }, delay);
    this.#roundTimer.unref();
  }

  /** One balancing round: reload what is watched, keep the fair share of leases, refresh owners, realtime. */
  #runRound(): Promise<void> {
    const round = this.#balance().catch((error: unknown) => {
      this.#services.metrics.countWatchError('round');
      this.#logger.warn({ err: error }, 'a watcher round failed; retried next round');
    });
    this.#round = round;
    return round;
  }

  async #balance(): Promise<void> {
    const watched = await loadWatched(this.#services);
    this.#tokens.reloaded();
    const result = await this.#balancer.balance([...watched.keys()]);
    if (this.#stopped) return;
    this.#liveProcesses = result.liveProcesses;
    this.#short = result.held < result.target;
    this.#adopt(watched);
    this.#services.metrics.setWatchLeases(this.#repos.size, result.liveProcesses);
    if (result.acquired.length > 0 || result.released.length > 0) {
      this.#logger.debug(
        { acquired: result.acquired.length, released: result.released.length, held: result.held },
        'watched repositories rebalanced',
      );
    }
    await this.#owners.refreshDue(uniqueSubscriptions(watched));
    if (this.#feed && !this.#realtimeSync) {
      this.#realtimeSync = this.#syncRealtime(this.#feed).finally(() => {
        this.#realtimeSync = undefined;
      });
    }
  }

  /** Follows the held leases: a RepoWatch and a poll schedule for each, nothing for the others. */
  #adopt(watched: Map<string, WatchedRepo>): void {
    for (const unit of [...this.#repos.keys()]) {
      if (this.#balancer.holds(unit) && watched.has(unit)) continue;
      this.#repos.delete(unit);
      this.#scheduler.remove(unit);
    }
    for (const unit of this.#balancer.held) {
      const info = watched.get(unit);
      if (!info) continue;
      const repo = this.#repos.get(unit);
      if (repo) repo.info = info;
      else this.#repos.set(unit, new RepoWatch(info));
      this.#scheduler.add(unit);
    }
  }

  #held(unit: string): RepoWatch | undefined {
    return this.#balancer.holds(unit) ? this.#repos.get(unit) : undefined;
  }

  async #poll(unit: string): Promise<void> {
    const repo = this.#held(unit);
    if (!repo || this.#stopped) return;
    try {
      await pollRepo(this.#ctx, repo);
    } catch (error) {
      this.#services.metrics.countWatchError('poll');
      this.#logger.warn({ err: error, unit }, 'a poll failed; retried next round');
    } finally {
      this.#polls += 1;
    }
  }

  #reconnected(deployment: Deployment): void {
    const units = [...this.#repos.values()].filter((r) => r.info.deployment === deployment).map((r) => r.key);
    this.#logger.info(
      { deployment, repositories: units.length },
      'realtime reconnected; polling what it may have missed',
    );
    this.#scheduler.pollSoon(units);
  }

  /**
   * Listens to the user channels of the creators whose tokens watch the held repositories, and to
   * `repo-<id>` for a held repository its creator has no permission on (a public one: its events do
   * not reach that creator's channels).
   */
  async #syncRealtime(feed: RealtimeFeed): Promise<void> {
    try {
      const creators = new Map<string, Creator>();
      const byRepo: [RepoWatch, Creator][] = [];
      for (const repo of this.#repos.values()) {
        const sub = repo.subscription ?? this.#tokens.candidates(repo.info)[0];
        if (!sub) continue;
        const creator = { deployment: repo.info.deployment, teamId: sub.teamId, userId: sub.createdBy };
        creators.set(creatorKey(creator), creator);
        byRepo.push([repo, creator]);
      }
      await this.#identities.refresh([...creators.values()]);
      const wishes: ChannelWish[] = [];
      for (const creator of creators.values()) {
        for (const channel of this.#identities.get(creator)?.channels ?? []) {
          wishes.push({ deployment: creator.deployment, channel, creator });
        }
      }
      for (const [repo, creator] of byRepo) {
        if (this.#identities.get(creator)?.permitted.has(repo.info.repoId)) continue;
        wishes.push({ deployment: creator.deployment, channel: `repo-${repo.info.repoId}`, creator });
      }
      if (!this.#stopped) await feed.sync(wishes);
    } catch (error) {
      this.#services.metrics.countWatchError('realtime');
      this.#logger.warn({ err: error }, 'could not update realtime subscriptions; polling covers them');
    }
  }
}

function uniqueSubscriptions(watched: Map<string, WatchedRepo>): Subscription[] {
  const subs = new Map<string, Subscription>();
  for (const repo of watched.values()) for (const sub of repo.subscriptions) subs.set(sub.id, sub);
  return [...subs.values()];
}
