import { z } from 'zod';
import type { CiSession } from './client.js';
import { badRequest } from './errors.js';
import { idSegment, type RepoKey, repoPath } from './paths.js';
import {
  type Hook,
  hookSchema,
  type RepoKey as RepoPublicKey,
  type Repository,
  repoKeySchema,
  repositorySchema,
} from './schemas.js';

/** 4.13 GET /repos/{id} or /repos/{owner}/{name} */
export async function getRepo(ci: CiSession, repo: RepoKey): Promise<Repository> {
  return (await ci.json({ method: 'GET', path: repoPath(repo) }, z.looseObject({ repo: repositorySchema })))
    .repo;
}

export interface RepoFilters {
  /** Provider login of a user with access. */
  member?: string;
  /** First slug segment. */
  ownerName?: string;
  slug?: string;
  search?: string;
  /** Only enabled repositories. */
  active?: boolean;
}

export type ReposQuery = { ids: number[] } | RepoFilters;

/** 4.13 GET /repos — `ids` cannot be combined with other filters; no filter = recently active repos. */
export async function listRepos(ci: CiSession, query: ReposQuery = {}): Promise<Repository[]> {
  // Read as optional fields: a caller may pass `{ids: undefined, member}` built from its own options.
  const { ids, member, ownerName, slug, search, active } = query as { ids?: number[] } & RepoFilters;
  if (ids !== undefined) {
    const others = [member, ownerName, slug, search, active].filter((value) => value !== undefined);
    if (others.length > 0) throw badRequest('ids cannot be combined with other repository filters');
    if (ids.length === 0) throw badRequest('ids must list at least one repository id');
    for (const id of ids) idSegment(id, 'repository id');
  }
  const params =
    ids !== undefined
      ? { ids }
      : { member, owner_name: ownerName, slug, search, active: active ? true : undefined };
  const answer = await ci.json(
    { method: 'GET', path: '/repos', query: params },
    z.looseObject({ repos: z.array(repositorySchema) }),
  );
  return answer.repos;
}

/** 4.8 GET /hooks — the user's repositories with their activation. */
export async function listHooks(ci: CiSession): Promise<Hook[]> {
  const answer = await ci.json(
    { method: 'GET', path: '/hooks', requiresAuth: true },
    z.looseObject({ hooks: z.array(hookSchema) }),
  );
  return answer.hooks;
}

/** 4.8 PUT /hooks with {hook: {id, active}} — enables or disables a repository. */
export async function setHook(ci: CiSession, repositoryId: number, active: boolean): Promise<void> {
  idSegment(repositoryId, 'repository id');
  await ci.send({
    method: 'PUT',
    path: '/hooks',
    requiresAuth: true,
    body: { json: { hook: { id: repositoryId, active } } },
  });
}

/** 4.8 PUT /hooks/{id} with {hook: {active}} — the same through the hook's own path. */
export async function setHookById(ci: CiSession, repositoryId: number, active: boolean): Promise<void> {
  await ci.send({
    method: 'PUT',
    path: `/hooks/${idSegment(repositoryId, 'repository id')}`,
    requiresAuth: true,
    body: { json: { hook: { active } } },
  });
}

/** 4.12 GET /repos/{repo}/key — the public key for `secure:` values. */
export async function getRepoKey(ci: CiSession, repo: RepoKey): Promise<RepoPublicKey> {
  return ci.json({ method: 'GET', path: `${repoPath(repo)}/key` }, repoKeySchema);
}

/** 4.12 POST /repos/{repo}/key — a new key; every value encrypted with the old one stops working. */
export async function regenerateRepoKey(ci: CiSession, repo: RepoKey): Promise<RepoPublicKey> {
  return ci.json({ method: 'POST', path: `${repoPath(repo)}/key`, requiresAuth: true }, repoKeySchema);
}
