import { z } from 'zod';
import type { Deployment } from '../config.js';
import { type BuildProgress, type BuildSnapshot, snapshotSchema } from '../notify/snapshot.js';
import type { Kv } from './kv.js';

/**
 * What the notifier remembers besides the parent messages (`BuildMessages`): the finished builds of
 * each branch (for `only:changes`), the state a replica that lost a posting race hands to the one
 * posting, the failure replies already posted, and notifications waiting to be retried.
 */

/** A finished build as the history keeps it. */
export interface FinishedBuild {
  number: string;
  buildId: number;
  state: string;
}

/** Where a failure reply goes, once per build attempt. */
export interface LogReplySlot {
  deployment: Deployment;
  buildId: number;
  /** `attemptOf(build)`: a restart is a new attempt. */
  attempt: string;
  teamId: string;
  channelId: string;
}

export interface PendingNotification {
  /** ISO time of the first failure; retries stop some time after it. */
  since: string;
  snapshot: BuildSnapshot;
}

/** Finished builds kept per branch or pull request. */
const BUILDS_PER_ORIGIN = 5;
/** Branches and pull requests kept per repository (those with the newest builds). */
const ORIGINS_PER_REPO = 200;
const SNAPSHOT_TTL_MS = 24 * 60 * 60 * 1000;
const LOG_REPLY_KEEP_MS = 30 * 24 * 60 * 60 * 1000;
// Every successful write by another replica moves the state strictly forward, so contention ends;
// the cap is only a guard against a bug elsewhere.
const CAS_ATTEMPTS = 50;
const CLAIMED = 'claimed';
const POSTED = 'posted';

const finishedValue = z.object({ s: z.string().min(1), id: z.number().int() });
const progressValue = z.object({
  state: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
const pendingValue = z.object({ v: z.literal(1), since: z.iso.datetime(), snapshot: snapshotSchema });

const historyKey = (deployment: Deployment, repoId: number) => `notify-history:${deployment}:${repoId}`;
const progressKey = (deployment: Deployment, buildId: number) => `notify-progress:${deployment}:${buildId}`;
const snapshotKey = (deployment: Deployment, buildId: number) => `notify-snapshot:${deployment}:${buildId}`;
const logReplyKey = (s: LogReplySlot) =>
  `notify-logs:${s.deployment}:${s.buildId}:${s.teamId}:${s.channelId}:${encodeURIComponent(s.attempt)}`;
const PENDING_KEY = 'notify-pending';

/** History fields are `{origin}\n{build number}`: origins never hold a newline (git refuses one). */
const historyField = (origin: string, number: string) => `${origin}\n${number}`;

function splitField(field: string): { origin: string; number: number } | undefined {
  const cut = field.lastIndexOf('\n');
  const number = Number(field.slice(cut + 1));
  return cut > 0 && Number.isSafeInteger(number) ? { origin: field.slice(0, cut), number } : undefined;
}

export class NotifyState {
  constructor(private readonly kv: Kv) {}

  /**
   * Records a finished build of a branch or pull request and returns the state of the nearest
   * earlier finished build of the same origin that passed, failed or errored (canceled builds say
   * nothing about the code and are skipped). "Earlier" is by build number, so recording the same
   * build again (a restart) or builds out of order gives the same answer.
   */
  async recordFinished(
    deployment: Deployment,
    repoId: number,
    origin: string,
    build: FinishedBuild,
  ): Promise<string | undefined> {
    const key = historyKey(deployment, repoId);
    await this.kv.hset(
      key,
      historyField(origin, build.number),
      JSON.stringify({ s: build.state, id: build.buildId }),
    );
    const entries = readHistory(await this.kv.hgetall(key));
    for (const field of fieldsToForget(entries)) await this.kv.hdel(key, field);
    const number = Number(build.number);
    return entries
      .filter((e) => e.origin === origin && e.number < number && e.state !== 'canceled')
      .sort((a, b) => b.number - a.number)[0]?.state;
  }

  /** How far the newest update any replica accepted for the build had come. */
  async progress(deployment: Deployment, buildId: number): Promise<BuildProgress | undefined> {
    return parse(progressValue, await this.kv.get(progressKey(deployment, buildId)));
  }

  /**
   * Moves the build's progress to `incoming` unless `isOlder(current, incoming)` says it is older
   * than what is stored; false then. A compare-and-swap (SET NX when empty, an atomic
   * replace-if-equals otherwise), retried when another replica wrote in between, so replicas can
   * never move it backwards: the key is never empty once written, and every write checks what it
   * replaces.
   */
  async advanceProgress(
    deployment: Deployment,
    buildId: number,
    incoming: BuildProgress,
    isOlder: (current: BuildProgress, incoming: BuildProgress) => boolean,
  ): Promise<boolean> {
    const key = progressKey(deployment, buildId);
    const next = JSON.stringify({
      state: incoming.state,
      started_at: incoming.started_at ?? null,
      finished_at: incoming.finished_at ?? null,
    });
    for (let attempt = 0; attempt < CAS_ATTEMPTS; attempt++) {
      const raw = await this.kv.get(key);
      const current = parse(progressValue, raw);
      if (current && isOlder(current, incoming)) return false;
      if (raw === next) return true;
      const written =
        raw === null
          ? await this.kv.set(key, next, { ttlMs: SNAPSHOT_TTL_MS, ifAbsent: true })
          : await this.kv.replaceIfEquals(key, raw, next, SNAPSHOT_TTL_MS);
      if (written) return true;
    }
    // Others kept writing for every attempt: each of their writes was checked against what it
    // replaced, so what stands is at least as new; this update is treated as news all the same.
    return true;
  }

  /** Keeps the newest state of a build for the replica that is posting its message. */
  async saveSnapshot(snapshot: BuildSnapshot): Promise<void> {
    const key = snapshotKey(snapshot.deployment, snapshot.build.id);
    await this.kv.set(key, JSON.stringify(snapshot), { ttlMs: SNAPSHOT_TTL_MS });
  }

  async loadSnapshot(deployment: Deployment, buildId: number): Promise<BuildSnapshot | undefined> {
    return parse(snapshotSchema, await this.kv.get(snapshotKey(deployment, buildId)));
  }

  /** True for exactly one caller per slot until released; the claim lapses after `ttlMs`. */
  claimLogReply(slot: LogReplySlot, ttlMs: number): Promise<boolean> {
    return this.kv.set(logReplyKey(slot), CLAIMED, { ttlMs, ifAbsent: true });
  }

  async logReplyPosted(slot: LogReplySlot): Promise<void> {
    await this.kv.set(logReplyKey(slot), POSTED, { ttlMs: LOG_REPLY_KEEP_MS });
  }

  /** Gives a claim back (the reply could not be posted), so a retry may post it. */
  async releaseLogReply(slot: LogReplySlot): Promise<void> {
    if ((await this.kv.get(logReplyKey(slot))) === CLAIMED) await this.kv.del(logReplyKey(slot));
  }

  async addPending(buildKey: string, pending: PendingNotification): Promise<void> {
    await this.kv.hset(PENDING_KEY, buildKey, JSON.stringify({ v: 1, ...pending }));
  }

  async removePending(buildKey: string): Promise<void> {
    await this.kv.hdel(PENDING_KEY, buildKey);
  }

  /** Every notification waiting for a retry, by build key; entries that do not parse are dropped. */
  async pending(): Promise<Map<string, PendingNotification>> {
    const found = new Map<string, PendingNotification>();
    for (const [buildKey, raw] of Object.entries(await this.kv.hgetall(PENDING_KEY))) {
      const value = parse(pendingValue, raw);
      if (value) found.set(buildKey, { since: value.since, snapshot: value.snapshot });
      else await this.kv.hdel(PENDING_KEY, buildKey);
    }
    return found;
  }
}

interface HistoryEntry {
  field: string;
  origin: string;
  number: number;
  state: string;
}

function readHistory(fields: Record<string, string>): HistoryEntry[] {
  const entries: HistoryEntry[] = [];
  for (const [field, raw] of Object.entries(fields)) {
    const where = splitField(field);
    const value = parse(finishedValue, raw);
    if (where && value) entries.push({ field, ...where, state: value.s });
  }
  return entries;
}

/** All but the newest builds of each origin, and every build of the origins beyond the cap. */
function fieldsToForget(entries: HistoryEntry[]): string[] {
  const byOrigin = new Map<string, HistoryEntry[]>();
  for (const entry of entries) byOrigin.set(entry.origin, [...(byOrigin.get(entry.origin) ?? []), entry]);
  const forget: string[] = [];
  const origins = [...byOrigin.values()].map((list) => list.sort((a, b) => b.number - a.number));
  origins.sort((a, b) => (b[0]?.number ?? 0) - (a[0]?.number ?? 0));
  origins.forEach((list, index) => {
    const keep = index < ORIGINS_PER_REPO ? BUILDS_PER_ORIGIN : 0;
    forget.push(...list.slice(keep).map((e) => e.field));
  });
  return forget;
}

function parse<T extends z.ZodType>(schema: T, raw: string | null): z.output<T> | undefined {
  if (raw === null) return undefined;
  try {
    const result = schema.safeParse(JSON.parse(raw));
    return result.success ? result.data : undefined;
  } catch {
    return undefined;
  }
}
