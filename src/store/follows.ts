import { z } from 'zod';
import { DEPLOYMENTS, type Deployment } from '../config.js';
import type { Kv } from './kv.js';

/**
 * Live log follows (`/ci logs <job> --follow`): which job is followed in which channel, where its
 * tail message sits and whose linked token reads it. The record outlives the process that follows
 * it, so another replica (or the same one restarted) can continue it; who follows it right now is
 * a lease (`Leases`, name `followLeaseName(id)`), not part of the record.
 */

export interface FollowRecord {
  /** `followId(...)`: one follow per job per channel. */
  id: string;
  deployment: Deployment;
  jobId: number;
  teamId: string;
  channelId: string;
  /** The Slack user whose linked CI token reads the job (the one who asked). */
  userId: string;
  /** How messages name the job: `owner/name` and `123.2`. */
  slug: string;
  jobNumber: string;
  /** The message the tail is threaded under (the build's notification, or our own parent line). */
  threadTs?: string;
  /** The tail message itself; absent until it was posted. */
  messageTs?: string;
  /** ISO 8601. */
  startedAt: string;
}

const slackId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const ts = z.string().regex(/^\d{1,12}\.\d{1,9}$/);
const recordSchema = z.object({
  v: z.literal(1),
  id: z.string().min(1).max(200),
  deployment: z.enum(DEPLOYMENTS),
  jobId: z.number().int().positive(),
  teamId: slackId,
  channelId: slackId,
  userId: slackId,
  slug: z.string().min(1).max(300),
  jobNumber: z.string().min(1).max(40),
  threadTs: ts.optional(),
  messageTs: ts.optional(),
  startedAt: z.string(),
});

/** Jobs run for hours at most; a record nobody ended (every replica gone for good) goes after this. */
export const FOLLOW_RECORD_TTL_MS = 24 * 60 * 60 * 1000;
const INDEX_KEY = 'follows';
const recordKey = (id: string) => `follow:${id}`;
/** Who asked to stop a follow: any replica writes it, the one holding the follow acts on it. */
const stopKey = (id: string) => `follow-stop:${id}`;

export function followId(f: Pick<FollowRecord, 'deployment' | 'jobId' | 'teamId' | 'channelId'>): string {
  return `${f.deployment}:${f.jobId}:${f.teamId}:${f.channelId}`;
}

export function followLeaseName(id: string): string {
  return `follow:${id}`;
}

export class Follows {
  constructor(private readonly kv: Kv) {}

  /** Stores a new follow; false (nothing written) when one with this id exists already. */
  async claim(record: FollowRecord): Promise<boolean> {
    // Indexed first: a record is never unlisted, so a replica scanning for orphans always finds it.
    await this.kv.sadd(INDEX_KEY, record.id);
    const claimed = await this.kv.set(recordKey(record.id), encode(record), {
      ttlMs: FOLLOW_RECORD_TTL_MS,
      ifAbsent: true,
    });
    // A stop request left by an earlier follow of this job and channel (its process died after
    // removing the record) must not end this one.
    if (claimed) await this.kv.del(stopKey(record.id));
    return claimed;
  }

  /** Overwrites the record (the tail message was posted). */
  async save(record: FollowRecord): Promise<void> {
    await this.kv.set(recordKey(record.id), encode(record), { ttlMs: FOLLOW_RECORD_TTL_MS });
  }

  async get(id: string): Promise<FollowRecord | undefined> {
    return decode(await this.kv.get(recordKey(id)));
  }

  /** Every follow id listed; records may have expired since (`get` then answers undefined). */
  ids(): Promise<string[]> {
    return this.kv.smembers(INDEX_KEY);
  }

  /** The record first: a stop request outliving it is harmless (see `claim`). */
  async remove(id: string): Promise<void> {
    await this.kv.del(recordKey(id));
    await this.kv.srem(INDEX_KEY, id);
    await this.kv.del(stopKey(id));
  }

  /** Records that `userId` asked to stop the follow; it lasts as long as a record can. */
  async requestStop(id: string, userId: string): Promise<void> {
    await this.kv.set(stopKey(id), userId, { ttlMs: FOLLOW_RECORD_TTL_MS });
  }

  /** For each id, who asked to stop that follow, if anyone did. */
  async stopRequests(ids: string[]): Promise<(string | undefined)[]> {
    if (ids.length === 0) return [];
    return (await this.kv.mget(ids.map(stopKey))).map((userId) => userId ?? undefined);
  }
}

function encode(record: FollowRecord): string {
  return JSON.stringify({ v: 1, ...record });
}

function decode(raw: string | null): FollowRecord | undefined {
  if (raw === null) return undefined;
  try {
    const parsed = recordSchema.safeParse(JSON.parse(raw));
    if (!parsed.success) return undefined;
    const { v: _version, ...record } = parsed.data;
    return record;
  } catch {
    return undefined;
  }
}
