import { z } from 'zod';
import { DEPLOYMENTS, type Deployment } from '../config.js';
import { parseJsonOrUndefined } from '../json.js';
import type { Kv } from './kv.js';

/**
 * Repositories known to have moved off a deployment, which keeps them read-only. Remembered by
 * slug (lower-cased) and, when known, by their id on the deployment they left: ids differ between
 * deployments, so an id of the new deployment is never stored here.
 */

/** How the app learned that the repository moved. */
export type MovedHow = 'migrated_by_app' | 'service_refused';

export interface MovedRepo {
  to: Deployment;
  how: MovedHow;
  /** ISO 8601. */
  at: string;
}

/** A repository as it may be known: by slug, by its id on the old deployment, or both. */
export interface MovedRepoRef {
  slug?: string | undefined;
  id?: number | undefined;
}

const record = z.object({
  v: z.literal(1),
  to: z.enum(DEPLOYMENTS),
  how: z.enum(['migrated_by_app', 'service_refused']),
  at: z.string(),
});

function keysOf(from: Deployment, repo: MovedRepoRef): string[] {
  const keys: string[] = [];
  if (repo.slug) keys.push(`moved:${from}:slug:${encodeURIComponent(repo.slug.toLowerCase())}`);
  if (repo.id !== undefined) keys.push(`moved:${from}:id:${repo.id}`);
  return keys;
}

export class MovedRepos {
  constructor(
    private readonly kv: Kv,
    private readonly clock: () => Date = () => new Date(),
  ) {}

  async remember(from: Deployment, repo: MovedRepoRef, to: Deployment, how: MovedHow): Promise<void> {
    const value = JSON.stringify(record.parse({ v: 1, to, how, at: this.clock().toISOString() }));
    for (const key of keysOf(from, repo)) await this.kv.set(key, value);
  }

  /** Where the repository moved to, if it is known to have moved; undefined otherwise. */
  async find(from: Deployment, repo: MovedRepoRef): Promise<MovedRepo | undefined> {
    const keys = keysOf(from, repo);
    if (keys.length === 0) return undefined;
    for (const raw of await this.kv.mget(keys)) {
      if (raw === null) continue;
      const parsed = record.safeParse(parseJsonOrUndefined(raw));
      if (parsed.success) return { to: parsed.data.to, how: parsed.data.how, at: parsed.data.at };
    }
    return undefined;
  }
}
