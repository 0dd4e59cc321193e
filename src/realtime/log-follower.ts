import { randomBytes } from 'node:crypto';
import { hostname } from 'node:os';
import type { CiSession } from '../ci/client.js';
import { CiError } from '../ci/errors.js';
import { getJob } from '../ci/jobs.js';
import { getRepo } from '../ci/repos.js';
import { isFinished, type Job } from '../ci/schemas.js';
import type { Deployment } from '../config.js';
import type { Logger } from '../log.js';
import { openSession } from '../ops/actor.js';
import { type FollowedJobView, type StopReason, stoppedTailMessage } from '../slack/views/follow.js';
import { type FollowRecord, Follows, followId, followLeaseName } from '../store/follows.js';
import { Leases } from '../store/leases.js';
import { checkFollowedJobs, RepoPrivacy } from './follow-checks.js';
import { postTail, type TailPlacement } from './follow-placement.js';
import type {
  FollowerServices,
  FollowerTiming,
  FollowOutcome,
  FollowRequest,
  LogFollowerOptions,
  UnfollowOutcome,
  UnfollowRequest,
} from './follow-types.js';
import { FollowedJob, type FollowOwner } from './followed-job.js';

export type {
  FollowerServices,
  FollowerTiming,
  FollowOutcome,
  FollowRequest,
  LogFollowerOptions,
  UnfollowOutcome,
  UnfollowRequest,
} from './follow-types.js';

/** Orphaned follows resumed at once (each reads its job and parts over REST first). */
const ADOPT_CONCURRENCY = 16;

/**
 * Follows running jobs live in Slack threads, one `FollowedJob` per job and channel. Each follow
 * is recorded in the store (`Follows`) under a lease this process renews; a process that finds a
 * follow whose lease lapsed (its owner died) continues it, REST catch-up first. At most
 * `maxFollowedJobs` follows live in one process.
 */
export class LogFollower {
  readonly #services: FollowerServices;
  readonly #log: Logger;
  readonly #timing: FollowerTiming;
  readonly #follows: Follows;
  readonly #leases: Leases;
  readonly #owner: FollowOwner;
  readonly #active = new Map<string, FollowedJob>();
  /** Follows being set up or resumed: they count against the cap and are not adopted twice. */
  readonly #starting = new Set<string>();
  readonly #reconnectWatches = new Map<Deployment, Promise<() => void>>();
  readonly #privacy: RepoPrivacy;
  readonly #timers: NodeJS.Timeout[] = [];
  #timersRunning = false;
  #scanTimer: NodeJS.Timeout | undefined;
  #scanning: Promise<void> | undefined;
  #stopped = false;

  constructor(services: FollowerServices, options: LogFollowerOptions = {}) {
    const { config } = services;
    const leaseTtlMs = options.timing?.leaseTtlMs ?? config.leaseTtlMs;
    const updateIntervalMs = options.timing?.updateIntervalMs ?? config.logUpdateIntervalMs;
    this.#timing = {
      updateIntervalMs,
      maxFollowedJobs: config.maxFollowedJobs,
      leaseTtlMs,
      renewIntervalMs: Math.max(1, Math.floor(leaseTtlMs / 3)),
      scanIntervalMs: leaseTtlMs,
      jobCheckIntervalMs: 15_000,
      gapWaitMs: 1_000,
      finishGraceMs: 10_000,
      stateRetryMs: 1_000,
      ...options.timing,
    };
    this.#services = services;
    this.#log = services.logger.child({ component: 'log-follower' });
    this.#privacy = new RepoPrivacy(this.#log);
    this.#follows = new Follows(services.kv);
    const ownerId = options.ownerId ?? `${hostname()}:${process.pid}:${randomBytes(4).toString('hex')}`;
    this.#leases = new Leases(services.kv, ownerId);
    this.#owner = {
      outbox: services.outbox,
      realtime: services.realtime,
      logger: this.#log,
      timing: this.#timing,
      repoIsPrivate: (session, repositoryId) => this.#privacy.isPrivate(session, repositoryId),
      watchReconnects: (deployment) => this.#watchReconnects(deployment),
      ended: (job, how) => void this.#ended(job, how),
    };
  }

  /** Follows now held by this process. */
  get size(): number {
    return this.#active.size;
  }

  /**
   * Starts following a job in a channel, as the actor. Throws NotLinkedError (actor not linked) or
   * the CiError of reading the job (not found, no access) before anything is posted.
   */
  async follow(request: FollowRequest): Promise<FollowOutcome> {
    const { deployment, jobId, actor, channelId } = request;
    const id = followId({ deployment, jobId, teamId: actor.teamId, channelId });
    const local = this.#active.get(id);
    if (this.#stopped) throw new Error('the log follower has stopped');

    const { session } = await openSession(this.#services, actor, deployment);
    const { job } = await getJob(session, jobId);
    const view = await this.#view(session, deployment, job);
    if (local) return { kind: 'already', view, placement: placementOf(local.record) };
    if (isFinished(job.state)) return { kind: 'finished', view, state: job.state };
    if (this.#starting.has(id)) return { kind: 'already', view };
    if (this.#load() >= this.#timing.maxFollowedJobs) {
      return { kind: 'at_capacity', max: this.#timing.maxFollowedJobs };
    }

    this.#starting.add(id);
    let claimed = false;
    try {
      if (!(await this.#leases.acquire(followLeaseName(id), this.#timing.leaseTtlMs))) {
        const existing = await this.#follows.get(id);
        return { kind: 'already', view, ...(existing ? { placement: placementOf(existing) } : {}) };
      }
      const record: FollowRecord = {
        id,
        deployment,
        jobId,
        teamId: actor.teamId,
        channelId,
        userId: actor.userId,
        slug: view.slug,
        jobNumber: job.number,
        startedAt: new Date().toISOString(),
      };
      if (!(await this.#follows.claim(record))) {
        // The lease was free but the record is there: its owner died. Continue it from here.
        const existing = await this.#follows.get(id);
        if (existing) {
          this.#starting.delete(id);
          void this.#resume(existing);
          return { kind: 'already', view, placement: placementOf(existing) };
        }
        await this.#follows.save(record);
      }
      claimed = true;
      const placement = await postTail(this.#services, record, view, job, request.threadTs);
      const posted = { ...record, threadTs: placement.threadTs, messageTs: placement.messageTs };
      await this.#follows.save(posted);
      this.#launch(posted, session, job, view, job.state);
      return { kind: 'started', view, placement };
    } catch (error) {
      if (claimed) await this.#forget(id);
      else await this.#leases.release(followLeaseName(id)).catch(() => false);
      throw error;
    } finally {
      this.#starting.delete(id);
    }
  }

  /**
   * Stops following a job in a channel because someone asked. The process holding the follow ends
   * it with a last edit naming who asked: this one at once, another at its next lease renewal, and
   * a follow nobody holds when a process adopts it.
   */
  async unfollow(request: UnfollowRequest): Promise<UnfollowOutcome> {
    const { deployment, jobId, actor, channelId } = request;
    const id = followId({ deployment, jobId, teamId: actor.teamId, channelId });
    const record = await this.#follows.get(id);
    if (!record) return { kind: 'not_followed' };
    await this.#follows.requestStop(id, actor.userId);
    await this.#endAsked(id, actor.userId); // when this process holds it; else its holder does
    return { kind: 'stopping', view: this.#recordView(record) };
  }

  /** Continues follows whose owner died, now and every `scanIntervalMs`. */
  async start(): Promise<void> {
    if (this.#stopped) return;
    this.#startTimers();
    await this.adoptOrphans();
    const scan = () => {
      this.#scanTimer = setTimeout(() => {
        void this.adoptOrphans().finally(() => {
          if (!this.#stopped) scan();
        });
      }, this.#timing.scanIntervalMs);
    };
    scan();
  }

  /**
   * Stops every follow of this process without a final edit. With `handOver` (the default) their
   * leases are released so that another process (or this one restarted) continues them at once;
   * without it they lapse after the lease time, as if the process had died.
   */
  async stop(options: { handOver?: boolean } = {}): Promise<void> {
    if (this.#stopped) return;
    this.#stopped = true;
    clearTimeout(this.#scanTimer);
    for (const timer of this.#timers.splice(0)) clearInterval(timer);
    const follows = [...this.#active.values()];
    this.#active.clear();
    for (const followed of follows) followed.halt();
    const watches = await Promise.allSettled(this.#reconnectWatches.values());
    for (const watch of watches) if (watch.status === 'fulfilled') watch.value();
    this.#reconnectWatches.clear();
    await this.#scanning?.catch(() => {});
    if (options.handOver ?? true) {
      await Promise.allSettled(follows.map((f) => this.#leases.release(followLeaseName(f.id))));
    }
  }

  /** Looks for follows whose lease lapsed and continues them (REST catch-up first). */
  adoptOrphans(): Promise<void> {
    this.#scanning ??= this.#adoptOrphans()
      .catch((error: unknown) => this.#log.warn({ err: error }, 'looking for orphaned follows failed'))
      .finally(() => {
        this.#scanning = undefined;
      });
    return this.#scanning;
  }

  async #adoptOrphans(): Promise<void> {
    const resuming = new Set<Promise<void>>();
    for (const id of await this.#follows.ids()) {
      if (this.#stopped || this.#load() >= this.#timing.maxFollowedJobs) break;
      if (this.#active.has(id) || this.#starting.has(id)) continue;
      if (!(await this.#leases.acquire(followLeaseName(id), this.#timing.leaseTtlMs))) continue;
      const record = await this.#follows.get(id);
      if (!record) {
        await this.#forget(id);
        continue;
      }
      this.#log.info({ follow: id }, 'continuing a follow whose owner stopped');
      // #resume counts against the cap from its first line on, so the check above stays right.
      const resume = this.#resume(record).finally(() => resuming.delete(resume));
      resuming.add(resume);
      if (resuming.size >= ADOPT_CONCURRENCY) await Promise.race(resuming);
    }
    await Promise.all(resuming);
  }

  /** Continues a recorded follow whose lease this process holds. */
  async #resume(record: FollowRecord): Promise<void> {
    if (this.#active.has(record.id) || this.#starting.has(record.id)) return;
    this.#starting.add(record.id);
    try {
      const [askedBy] = await this.#follows.stopRequests([record.id]);
      if (askedBy !== undefined) {
        await this.#abandon(record, { kind: 'asked', userId: askedBy });
        return;
      }
      const token = await this.#services.accounts.token(record.teamId, record.userId, record.deployment);
      if (!token) {
        await this.#abandon(record, { kind: 'unlinked', userId: record.userId });
        return;
      }
      const session = this.#services.ci.session(record.deployment, token);
      const { job } = await getJob(session, record.jobId);
      const view = await this.#view(session, record.deployment, job);
      // A tail message posted before the restart shows something unknown, so its first edit goes.
      let postedState: string | undefined;
      let posted = record;
      if (record.messageTs === undefined) {
        const placement = await postTail(this.#services, record, view, job, record.threadTs);
        posted = { ...record, threadTs: placement.threadTs, messageTs: placement.messageTs };
        postedState = job.state;
        await this.#follows.save(posted);
      }
      if (posted.messageTs === undefined) return;
      const target = { ...posted, messageTs: posted.messageTs };
      const followed = this.#launch(target, session, job, view, postedState);
      if (isFinished(job.state)) followed.jobChecked(job);
    } catch (error) {
      if (error instanceof CiError && !error.transient) {
        await this.#abandon(record, { kind: 'no_access', userId: record.userId });
      } else {
        this.#log.warn({ err: error, follow: record.id }, 'could not continue a follow; trying later');
        await this.#leases.release(followLeaseName(record.id)).catch(() => false);
      }
    } finally {
      this.#starting.delete(record.id);
    }
  }

  #launch(
    record: FollowRecord & { messageTs: string },
    session: CiSession,
    job: Job,
    view: FollowedJobView,
    postedState: string | undefined,
  ): FollowedJob {
    const followed = new FollowedJob(this.#owner, record, session, job, view, postedState);
    this.#active.set(record.id, followed);
    this.#startTimers();
    followed.begin().catch((error: unknown) => this.#log.error({ err: error }, 'a follow failed to begin'));
    return followed;
  }

  /** Ends a follow of this process that someone asked to stop (nothing when it holds none). */
  async #endAsked(id: string, userId: string): Promise<void> {
    const followed = this.#active.get(id);
    if (!followed) return;
    this.#active.delete(id);
    followed.halt();
    await this.#abandon(followed.record, { kind: 'asked', userId });
  }

  /** Tells the thread the follow stopped (when there is a message) and forgets it. */
  async #abandon(record: FollowRecord, reason: StopReason): Promise<void> {
    this.#log.info({ follow: record.id, reason: reason.kind }, 'abandoning a follow');
    if (record.messageTs !== undefined) {
      const { teamId, channelId: channel, messageTs: ts } = record;
      await this.#services.outbox
        .update({
          teamId,
          channel,
          ts,
          ...stoppedTailMessage(this.#recordView(record), reason),
          final: true,
        })
        .catch((error: unknown) => this.#log.warn({ err: error }, 'could not say that a follow stopped'));
    }
    await this.#forget(record.id);
  }

  /** Also after `stop`: a final edit that lands while the process stops still ends the follow. */
  async #ended(followed: FollowedJob, how: 'finished' | 'gone'): Promise<void> {
    if (this.#active.get(followed.id) === followed) this.#active.delete(followed.id);
    this.#log.debug({ follow: followed.id, how }, 'a follow ended');
    await this.#forget(followed.id);
  }

  /** The record goes before the lease, so that nobody adopts a follow that ended. */
  async #forget(id: string): Promise<void> {
    try {
      await this.#follows.remove(id);
      await this.#leases.release(followLeaseName(id));
    } catch (error) {
      this.#log.warn({ err: error, follow: id }, 'could not remove a follow record');
    }
  }

  #load(): number {
    return this.#active.size + this.#starting.size;
  }

  #startTimers(): void {
    if (this.#timersRunning || this.#stopped) return;
    this.#timersRunning = true;
    this.#timers.push(
      setInterval(() => void this.#renewLeases(), this.#timing.renewIntervalMs),
      setInterval(() => void this.#checkJobs(), this.#timing.jobCheckIntervalMs),
    );
  }

  async #renewLeases(): Promise<void> {
    await this.#renewEach();
    await this.#endAskedFollows();
  }

  async #renewEach(): Promise<void> {
    await Promise.all(
      [...this.#active.values()].map(async (followed) => {
        try {
          if (await this.#leases.renew(followLeaseName(followed.id), this.#timing.leaseTtlMs)) return;
          // Another process holds it now (this one stalled past the lease): it is theirs.
          this.#log.warn({ follow: followed.id }, 'lost the lease of a follow; stopping here');
          if (this.#active.get(followed.id) === followed) this.#active.delete(followed.id);
          followed.halt();
        } catch (error) {
          this.#log.warn({ err: error, follow: followed.id }, 'could not renew the lease of a follow');
        }
      }),
    );
  }

  /** Ends the follows of this process that someone asked to stop (through any replica). */
  async #endAskedFollows(): Promise<void> {
    try {
      const ids = [...this.#active.keys()];
      const askedBy = await this.#follows.stopRequests(ids);
      await Promise.all(
        ids.map((id, index) => {
          const userId = askedBy[index];
          return userId === undefined ? undefined : this.#endAsked(id, userId);
        }),
      );
    } catch (error) {
      this.#log.warn({ err: error }, 'could not look for follows asked to stop');
    }
  }

  #checkJobs(): Promise<void> {
    return checkFollowedJobs(this.#active.values(), this.#log);
  }

  #watchReconnects(deployment: Deployment): void {
    if (this.#reconnectWatches.has(deployment) || this.#stopped) return;
    const watch = this.#services.realtime.onReconnected(deployment, () => {
      // The parts sent while the connection was down come over REST.
      for (const followed of this.#active.values()) {
        if (followed.deployment === deployment) void followed.catchUp();
      }
    });
    watch.catch(() => this.#reconnectWatches.delete(deployment));
    this.#reconnectWatches.set(deployment, watch);
  }

  async #view(session: CiSession, deployment: Deployment, job: Job): Promise<FollowedJobView> {
    const slug = job.repository_slug ?? (await getRepo(session, job.repository_id)).slug;
    return { site: this.#site(deployment), slug, job: { id: job.id, number: job.number } };
  }

  #recordView(record: FollowRecord): FollowedJobView {
    return {
      site: this.#site(record.deployment),
      slug: record.slug,
      job: { id: record.jobId, number: record.jobNumber },
    };
  }

  #site(deployment: Deployment) {
    return {
      deployment,
      label: this.#services.label(deployment),
      webUrl: this.#services.ci.deployment(deployment).webUrl,
    };
  }
}

function placementOf(record: FollowRecord): TailPlacement | undefined {
  if (record.messageTs === undefined || record.threadTs === undefined) return undefined;
  return { channel: record.channelId, threadTs: record.threadTs, messageTs: record.messageTs };
}
