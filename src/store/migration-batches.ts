import { randomBytes } from 'node:crypto';
import { parseJsonOrUndefined } from '../json.js';
import type { Kv } from './kv.js';
import {
  type MigrationBatch,
  type MigrationDraft,
  migrationBatch,
  migrationDraft,
} from './migration-records.js';

export * from './migration-records.js';

const draftKey = (id: string) => `migration-draft:${id}`;
const batchKey = (id: string) => `migration:${id}`;
const OPEN_KEY = 'migrations-open';
const offerKey = (subscriptionId: string) => `migration-offer:${subscriptionId}`;

/** A confirmation not clicked within this time is gone; running the command again offers a new one. */
export const DRAFT_TTL_MS = 60 * 60_000;
/** How long a finished batch is kept (for a late look at its message; nothing reads it after). */
const FINISHED_TTL_MS = 30 * 24 * 60 * 60_000;
/** "Move this channel's subscription?" is asked once per subscription within this time. */
const OFFER_TTL_MS = 30 * 24 * 60 * 60_000;

/**
 * Migration batches and their drafts. A batch is one JSON record written by the one process that
 * holds its lease (src/migration), so writes need no compare-and-swap; `migrations-open` lists the
 * batches not finished yet, for whichever process resumes them after a restart.
 */
export class MigrationBatches {
  constructor(private readonly kv: Kv) {}

  static newId(): string {
    return randomBytes(12).toString('base64url');
  }

  async saveDraft(draft: MigrationDraft): Promise<void> {
    await this.kv.set(draftKey(draft.id), JSON.stringify(migrationDraft.parse(draft)), {
      ttlMs: DRAFT_TTL_MS,
    });
  }

  /** The draft, taken: of two clicks on one Confirm button only the first gets it. */
  async takeDraft(id: string): Promise<MigrationDraft | undefined> {
    const raw = await this.kv.get(draftKey(id));
    if (raw === null || !(await this.kv.del(draftKey(id)))) return undefined;
    const parsed = migrationDraft.safeParse(parseJsonOrUndefined(raw));
    return parsed.success ? parsed.data : undefined;
  }

  /** Forgets a draft (its Cancel button); false when it was already gone. */
  dropDraft(id: string): Promise<boolean> {
    return this.kv.del(draftKey(id));
  }

  async create(batch: MigrationBatch): Promise<void> {
    await this.save(batch);
    await this.kv.sadd(OPEN_KEY, batch.id);
  }

  async save(batch: MigrationBatch): Promise<void> {
    await this.kv.set(batchKey(batch.id), JSON.stringify(migrationBatch.parse(batch)));
  }

  async get(id: string): Promise<MigrationBatch | undefined> {
    const raw = await this.kv.get(batchKey(id));
    if (raw === null) return undefined;
    const parsed = migrationBatch.safeParse(parseJsonOrUndefined(raw));
    return parsed.success ? parsed.data : undefined;
  }

  /** Stores the finished batch for a while and takes it off the open list. */
  async finish(batch: MigrationBatch): Promise<void> {
    await this.kv.set(batchKey(batch.id), JSON.stringify(migrationBatch.parse(batch)), {
      ttlMs: FINISHED_TTL_MS,
    });
    await this.kv.srem(OPEN_KEY, batch.id);
  }

  /** Takes an id whose record is gone (or unreadable) off the open list. */
  async forget(id: string): Promise<void> {
    await this.kv.srem(OPEN_KEY, id);
  }

  openIds(): Promise<string[]> {
    return this.kv.smembers(OPEN_KEY);
  }

  async isOpen(id: string): Promise<boolean> {
    return (await this.openIds()).includes(id);
  }

  /** True once per subscription: the one caller that should ask its channel about moving it. */
  claimOffer(subscriptionId: string): Promise<boolean> {
    return this.kv.set(offerKey(subscriptionId), '1', { ttlMs: OFFER_TTL_MS, ifAbsent: true });
  }

  /** Gives a claim back when the question could not be posted, so a later finish asks again. */
  async releaseOffer(subscriptionId: string): Promise<void> {
    await this.kv.del(offerKey(subscriptionId));
  }
}
