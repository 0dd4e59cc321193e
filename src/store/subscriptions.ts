import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { compareText } from '../compare-text.js';
import { DEPLOYMENTS, type Deployment } from '../config.js';
import type { Kv } from './kv.js';
import {
  assertSlackIds,
  type CoveredRepo,
  channelKey,
  coveredKey,
  coveredRepo,
  coveredRepoIds,
  creatorKey,
  deploymentKey,
  MGET_BATCH,
  parsePause,
  parseRecord,
  pausedKey,
  pauseRecord,
  recordKey,
  repoKey,
  type StoredRecord,
  type Subscription,
  type SubscriptionInput,
  subscriptionId,
  subscriptionInput,
  type TargetKey,
  targetKeyOf,
  type UpsertResult,
} from './subscription-records.js';

export {
  type CoveredRepo,
  coveredRepoIds,
  type Subscription,
  type SubscriptionInput,
  type SubscriptionTarget,
  subscriptionId,
  type TargetKey,
  targetKeyOf,
  type UpsertResult,
} from './subscription-records.js';

type Clock = () => Date;

/**
 * Channel subscriptions to repositories (or to every repository of an owner), with indexes by
 * channel, creator, deployment and repository. Indexes are written before a record and cleaned after
 * it, and every hit is checked against the record, so an interrupted write can leave a stale index
 * entry but never a wrong answer. Records that do not parse read as absent. Concurrent writes to one
 * subscription (two people subscribing a channel at the same moment) end with the last one.
 */
export class Subscriptions {
  constructor(
    private readonly kv: Kv,
    private readonly clock: Clock = () => new Date(),
  ) {}

  /** Subscribes; the same channel, deployment and target replaces filters and creator and re-activates. */
  async upsert(subscription: SubscriptionInput): Promise<UpsertResult> {
    const parsed = subscriptionInput.safeParse(subscription);
    if (!parsed.success) {
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
      throw new RangeError(`Cannot store the subscription; invalid ${fields.join(', ')}`);
    }
    const { teamId, channelId, deployment, target, filters, createdBy } = parsed.data;
    const id = subscriptionId(teamId, channelId, deployment, targetKeyOf(target));
    const previousRecord = await this.record(id);
    const previous = previousRecord ? await this.open(previousRecord) : undefined;
    const record: StoredRecord = {
      v: 1,
      id,
      teamId,
      channelId,
      deployment,
      target: target.kind === 'repo' ? target : { kind: 'owner', owner: target.owner },
      filters,
      createdBy,
      createdAt: this.clock().toISOString(),
      activation: randomBytes(9).toString('base64url'),
    };
    const repos = target.kind === 'repo' ? [{ id: target.repoId, slug: target.slug }] : target.repos;

    await this.kv.sadd(channelKey(teamId, channelId), id);
    await this.kv.sadd(creatorKey(teamId, createdBy), id);
    await this.kv.sadd(deploymentKey(deployment), id);
    for (const repo of repos) await this.kv.sadd(repoKey(deployment, repo.id), id);
    if (target.kind === 'owner') {
      for (const repo of target.repos) {
        await this.kv.hset(coveredKey(id, record.activation), String(repo.id), repo.slug);
      }
    }
    await this.kv.set(recordKey(id), JSON.stringify(record));

    if (previousRecord && previous) {
      if (previous.createdBy !== createdBy) await this.kv.srem(creatorKey(teamId, previous.createdBy), id);
      const kept = new Set(repos.map((r) => r.id));
      for (const old of coveredRepoIds(previous)) {
        if (!kept.has(old)) await this.kv.srem(repoKey(deployment, old), id);
      }
      await this.dropActivation(previousRecord);
    }
    const stored = { ...this.withoutActivation(record, repos), status: 'active' as const };
    return previous ? { subscription: stored, previous } : { subscription: stored };
  }

  /** Unsubscribes; false when the channel had no such subscription. */
  async remove(
    teamId: string,
    channelId: string,
    deployment: Deployment,
    target: TargetKey,
  ): Promise<boolean> {
    assertSlackIds(teamId, channelId);
    const id = subscriptionId(teamId, channelId, deployment, targetKeyOf(target));
    const record = await this.record(id);
    if (!record) return false;
    const sub = await this.open(record);
    const existed = await this.kv.del(recordKey(id));
    await this.kv.srem(channelKey(teamId, channelId), id);
    await this.kv.srem(creatorKey(teamId, record.createdBy), id);
    await this.kv.srem(deploymentKey(deployment), id);
    for (const repo of coveredRepoIds(sub)) await this.kv.srem(repoKey(deployment, repo), id);
    await this.dropActivation(record);
    return existed;
  }

  async get(id: string): Promise<Subscription | undefined> {
    const record = await this.record(id);
    return record ? this.open(record) : undefined;
  }

  /** A channel's subscriptions, active and paused, sorted by what they watch. */
  async forChannel(teamId: string, channelId: string): Promise<Subscription[]> {
    assertSlackIds(teamId, channelId);
    const ids = await this.kv.smembers(channelKey(teamId, channelId));
    const subs = await this.load(ids, (r) => r.teamId === teamId && r.channelId === channelId);
    return subs.sort(byTarget);
  }

  /** Subscriptions a Slack user created (their token watches them), active and paused. */
  async createdBy(teamId: string, userId: string): Promise<Subscription[]> {
    assertSlackIds(teamId, userId);
    const ids = await this.kv.smembers(creatorKey(teamId, userId));
    const subs = await this.load(ids, (r) => r.teamId === teamId && r.createdBy === userId);
    return subs.sort((a, b) => compareText(a.channelId, b.channelId) || byTarget(a, b));
  }

  /**
   * Every active subscription of a deployment, for the watcher: repository id → the subscriptions
   * covering it (an owner subscription is listed under each repository it covers).
   */
  async watched(deployment: Deployment): Promise<Map<number, Subscription[]>> {
    const ids = await this.kv.smembers(deploymentKey(deployment));
    const subs = await this.load(ids, (r) => r.deployment === deployment);
    const byRepo = new Map<number, Subscription[]>();
    for (const sub of subs.sort(byTarget)) {
      if (sub.status !== 'active') continue;
      for (const repo of coveredRepoIds(sub)) {
        const list = byRepo.get(repo);
        if (list) list.push(sub);
        else byRepo.set(repo, [sub]);
      }
    }
    return byRepo;
  }

  /** The active subscriptions covering one repository. */
  async forRepo(deployment: Deployment, repo: number): Promise<Subscription[]> {
    const ids = await this.kv.smembers(repoKey(deployment, repo));
    const subs = await this.load(ids, (r) => r.deployment === deployment);
    return subs.filter((s) => s.status === 'active' && coveredRepoIds(s).includes(repo)).sort(byTarget);
  }

  /**
   * Pauses a subscription (its creator's token stopped working, say). True only for the one call
   * that paused it, however many replicas try at once, so "tell the channel once" is easy; a new
   * subscribe re-activates it.
   */
  async pause(id: string, reason: string): Promise<boolean> {
    const record = await this.record(id);
    if (!record) return false;
    const pause = pauseRecord.parse({ reason: reason.slice(0, 200), at: this.clock().toISOString() });
    return this.kv.set(pausedKey(id, record.activation), JSON.stringify(pause), { ifAbsent: true });
  }

  /**
   * Replaces the repositories an owner subscription covers (the watcher lists the owner's
   * repositories again from time to time). Undefined for a missing or repository subscription.
   */
  async refreshOwner(id: string, repos: CoveredRepo[]): Promise<Subscription | undefined> {
    const list = z.array(coveredRepo).parse(repos);
    const record = await this.record(id);
    if (record?.target.kind !== 'owner') return undefined;
    const before = await this.open(record);
    const key = coveredKey(id, record.activation);
    const kept = new Set(list.map((r) => r.id));
    // Every covered repository is indexed again, which also repairs an entry a race may have lost.
    for (const repo of list) {
      await this.kv.sadd(repoKey(record.deployment, repo.id), id);
      await this.kv.hset(key, String(repo.id), repo.slug);
    }
    for (const old of coveredRepoIds(before)) {
      if (kept.has(old)) continue;
      await this.kv.hdel(key, String(old));
      await this.kv.srem(repoKey(record.deployment, old), id);
    }
    return this.get(id);
  }

  /** Every subscription of every deployment, active and paused (to move them elsewhere later). */
  async all(): Promise<Subscription[]> {
    const ids = new Set<string>();
    for (const deployment of DEPLOYMENTS) {
      for (const id of await this.kv.smembers(deploymentKey(deployment))) ids.add(id);
    }
    const subs = await this.load([...ids], () => true);
    return subs.sort((a, b) => compareText(a.id, b.id));
  }

  private async record(id: string): Promise<StoredRecord | undefined> {
    return parseRecord(await this.kv.get(recordKey(id)), id);
  }

  /** The records behind `ids` that parse and pass `belongs`, opened. */
  private async load(ids: string[], belongs: (record: StoredRecord) => boolean): Promise<Subscription[]> {
    const records: StoredRecord[] = [];
    for (let i = 0; i < ids.length; i += MGET_BATCH) {
      const batch = ids.slice(i, i + MGET_BATCH);
      const raws = await this.kv.mget(batch.map(recordKey));
      raws.forEach((raw, index) => {
        const record = parseRecord(raw, batch[index]);
        if (record && belongs(record)) records.push(record);
      });
    }
    const pauses: (string | null)[] = [];
    for (let i = 0; i < records.length; i += MGET_BATCH) {
      const batch = records.slice(i, i + MGET_BATCH);
      pauses.push(...(await this.kv.mget(batch.map((r) => pausedKey(r.id, r.activation)))));
    }
    return Promise.all(records.map((record, index) => this.open(record, pauses[index] ?? null)));
  }

  /** The record with its covered repositories and pause. `pause` is read here unless given. */
  private async open(record: StoredRecord, pause?: string | null): Promise<Subscription> {
    const rawPause = pause === undefined ? await this.kv.get(pausedKey(record.id, record.activation)) : pause;
    const repos =
      record.target.kind === 'repo'
        ? [{ id: record.target.repoId, slug: record.target.slug }]
        : await this.coveredRepos(record);
    const paused = parsePause(rawPause);
    const sub = this.withoutActivation(record, repos);
    return paused
      ? { ...sub, status: 'paused', pausedReason: paused.reason, pausedAt: paused.at }
      : { ...sub, status: 'active' };
  }

  private async coveredRepos(record: StoredRecord): Promise<CoveredRepo[]> {
    const fields = await this.kv.hgetall(coveredKey(record.id, record.activation));
    const repos: CoveredRepo[] = [];
    for (const [field, value] of Object.entries(fields)) {
      const parsed = coveredRepo.safeParse({ id: Number(field), slug: value });
      if (parsed.success) repos.push(parsed.data);
    }
    return repos.sort((a, b) => compareText(a.slug, b.slug) || a.id - b.id);
  }

  private withoutActivation(record: StoredRecord, repos: CoveredRepo[]): Omit<Subscription, 'status'> {
    const { v: _v, activation: _activation, target, ...rest } = record;
    return {
      ...rest,
      target: target.kind === 'repo' ? target : { kind: 'owner', owner: target.owner, repos },
    };
  }

  private async dropActivation(record: StoredRecord): Promise<void> {
    await this.kv.del(coveredKey(record.id, record.activation));
    await this.kv.del(pausedKey(record.id, record.activation));
  }
}

function targetLabel(sub: Subscription): string {
  return sub.target.kind === 'repo' ? sub.target.slug.toLowerCase() : `${sub.target.owner.toLowerCase()}/*`;
}

function byTarget(a: Subscription, b: Subscription): number {
  return compareText(targetLabel(a), targetLabel(b)) || compareText(a.deployment, b.deployment);
}
