import { type CacheFilter, deleteCaches, listCaches } from '../ci/caches.js';
import type { CiSession } from '../ci/client.js';
import type { RepoKey } from '../ci/paths.js';
import type { Cache, Repository } from '../ci/schemas.js';
import { compareText } from '../compare-text.js';
import type { RepoRef } from './references.js';
import { resolveRepo } from './resolve.js';

/** A repository's build caches: list them, and delete those a filter selects. */

export type { CacheFilter };

export interface CacheList {
  repo: Repository;
  caches: Cache[];
  /** Sum of the caches' sizes in bytes. */
  bytes: number;
}

export function totalBytes(caches: readonly Cache[]): number {
  return caches.reduce((sum, c) => sum + (Number.isFinite(c.size) && c.size > 0 ? c.size : 0), 0);
}

/** Newest first, as people look for what a recent build left. */
export async function listRepoCaches(ci: CiSession, ref: RepoRef, filter: CacheFilter): Promise<CacheList> {
  const repo = await resolveRepo(ci, ref);
  const caches = await listCaches(ci, repo.id, onlyGiven(filter));
  caches.sort((a, b) => compareText(b.last_modified ?? '', a.last_modified ?? ''));
  return { repo, caches, bytes: totalBytes(caches) };
}

/**
 * DELETE with the same filter the listing used. The service's answer lists what went when it says;
 * `deleted` is undefined when it did not (the spec does not give the body).
 */
export async function deleteRepoCaches(
  ci: CiSession,
  repo: RepoKey,
  filter: CacheFilter,
): Promise<{ deleted: Cache[] | undefined }> {
  const deleted = await deleteCaches(ci, repo, onlyGiven(filter));
  return { deleted: deleted.length > 0 ? deleted : undefined };
}

function onlyGiven(filter: CacheFilter): CacheFilter {
  return {
    ...(filter.branch ? { branch: filter.branch } : {}),
    ...(filter.match ? { match: filter.match } : {}),
  };
}
