import { z } from 'zod';
import type { Deployment } from '../config.js';
import { parseJsonOrUndefined } from '../json.js';
import type { Kv } from './kv.js';

/**
 * Where each build was announced: the parent message of a build in a channel (its ts), so that
 * every replica and every restart edits the same message and threads under it. A claim makes the
 * first post exactly-once across replicas: only the process that claims a slot posts into it.
 */

export interface BuildMessageSlot {
  deployment: Deployment;
  buildId: number;
  teamId: string;
  channelId: string;
}

export interface BuildMessage {
  channel: string;
  ts: string;
  postedAt: string;
}

const record = z.object({ channel: z.string(), ts: z.string(), postedAt: z.string() });
const CLAIMED = 'claimed';
/** Builds older than this are not edited any more; their slots expire. */
const KEEP_MS = 30 * 24 * 60 * 60 * 1000;

const slotKey = (s: BuildMessageSlot) => `build-msg:${s.deployment}:${s.buildId}:${s.teamId}:${s.channelId}`;

export class BuildMessages {
  constructor(
    private readonly kv: Kv,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  /** True for exactly one caller while the slot is empty; the claim lapses after `ttlMs` if never filled. */
  claim(slot: BuildMessageSlot, ttlMs: number): Promise<boolean> {
    return this.kv.set(slotKey(slot), CLAIMED, { ttlMs, ifAbsent: true });
  }

  async set(slot: BuildMessageSlot, message: { channel: string; ts: string }): Promise<BuildMessage> {
    const stored: BuildMessage = { ...message, postedAt: this.clock().toISOString() };
    await this.kv.set(slotKey(slot), JSON.stringify(stored), { ttlMs: KEEP_MS });
    return stored;
  }

  /** The posted message; undefined while the slot is empty or only claimed. */
  async get(slot: BuildMessageSlot): Promise<BuildMessage | undefined> {
    const raw = await this.kv.get(slotKey(slot));
    if (raw === null || raw === CLAIMED) return undefined;
    const parsed = record.safeParse(parseJsonOrUndefined(raw));
    return parsed.success ? parsed.data : undefined;
  }

  /** Gives a claim back (the post failed), so a later attempt may post. */
  async release(slot: BuildMessageSlot): Promise<void> {
    if ((await this.kv.get(slotKey(slot))) === CLAIMED) await this.kv.del(slotKey(slot));
  }
}
