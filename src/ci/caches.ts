import { z } from 'zod';
import type { CiSession } from './client.js';
import { type RepoKey, repoPath } from './paths.js';
import { type Cache, cacheSchema } from './schemas.js';

export interface CacheFilter {
  /** Only caches of this branch. */
  branch?: string;
  /** Only caches whose slug contains this text. */
  match?: string;
}

/** 4.7 GET /repos/{repo}/caches */
export async function listCaches(ci: CiSession, repo: RepoKey, filter: CacheFilter = {}): Promise<Cache[]> {
  const answer = await ci.json(
    { method: 'GET', path: `${repoPath(repo)}/caches`, query: { ...filter }, requiresAuth: true },
    z.looseObject({ caches: z.array(cacheSchema) }),
  );
  return answer.caches;
}

/** 4.7 DELETE /repos/{repo}/caches — the same filters choose what is deleted. */
export async function deleteCaches(ci: CiSession, repo: RepoKey, filter: CacheFilter = {}): Promise<Cache[]> {
  const answer = await ci.send({
    method: 'DELETE',
    path: `${repoPath(repo)}/caches`,
    query: { ...filter },
    requiresAuth: true,
  });
  const parsed = z.looseObject({ caches: z.array(cacheSchema) }).safeParse(answer);
  return parsed.success ? parsed.data.caches : [];
}
