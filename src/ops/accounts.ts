import { setTimeout as delay } from 'node:timers/promises';
import { getPermissions, listAccounts, listBroadcasts } from '../ci/accounts.js';
import { getCurrentUser } from '../ci/auth.js';
import type { CiSession } from '../ci/client.js';
import { CiError } from '../ci/errors.js';
import { listRepos } from '../ci/repos.js';
import type { Account, Broadcast, Repository, User } from '../ci/schemas.js';
import { syncUser } from '../ci/users.js';
import { UserFacingError } from './describe-error.js';

/** The account views: accounts, repositories, permissions, broadcasts, and a sync with GitHub. */

export function accountsOf(ci: CiSession, options: { all?: boolean } = {}): Promise<Account[]> {
  return listAccounts(ci, options);
}

export function broadcastsFor(ci: CiSession): Promise<Broadcast[]> {
  return listBroadcasts(ci);
}

export interface RepoSearch {
  term?: string | undefined;
  owner?: string | undefined;
  member?: string | undefined;
  active?: boolean | undefined;
}

/**
 * GET /repos with the filters given. Without owner or member it means "your repositories"
 * (member = the user's own login), as the command-line client's `repos` does; without any filter
 * the service would answer with every recently active repository instead.
 */
export function findRepos(ci: CiSession, login: string, search: RepoSearch): Promise<Repository[]> {
  const member = search.member ?? (search.owner === undefined ? login : undefined);
  return listRepos(ci, {
    search: search.term,
    ownerName: search.owner,
    member,
    active: search.active,
  });
}

/** The most repositories `permissions` names by slug (one GET /repos?ids= call). */
export const MAX_RESOLVED_REPOS = 100;

export type AccessLevel = 'admin' | 'push' | 'pull';

export interface PermissionsSummary {
  /** Repository ids per level; `pull` also holds those of `permissions` (any access). */
  ids: Record<AccessLevel, number[]>;
  /** Slugs of the repositories looked up: admin first, then push, then pull, up to MAX_RESOLVED_REPOS. */
  slugs: Map<number, string>;
}

/** GET /users/permissions, then one GET /repos?ids= for the slugs. */
export async function permissionsOf(ci: CiSession): Promise<PermissionsSummary> {
  const permissions = await getPermissions(ci);
  const ids: Record<AccessLevel, number[]> = {
    admin: unique(permissions.admin),
    push: unique(permissions.push),
    pull: unique([...permissions.pull, ...permissions.permissions]),
  };
  const wanted = unique([...ids.admin, ...ids.push, ...ids.pull]).slice(0, MAX_RESOLVED_REPOS);
  const slugs = new Map<number, string>();
  if (wanted.length > 0) {
    for (const repo of await listRepos(ci, { ids: wanted })) slugs.set(repo.id, repo.slug);
  }
  return { ids, slugs };
}

function unique(ids: readonly number[]): number[] {
  return [...new Set(ids)];
}

/** POST /users/sync; a 409 means one is already running, which the user is told as such. */
export async function startSync(ci: CiSession): Promise<void> {
  try {
    await syncUser(ci);
  } catch (error) {
    if (error instanceof CiError && error.code === 'conflict') {
      throw new UserFacingError(
        'A sync is already running for your account. It usually takes a minute or two; try again after it finished.',
      );
    }
    throw error;
  }
}

/** Pauses between checks of a running sync: short at first, about half a minute in all. */
export const SYNC_POLL_DELAYS_MS = [500, 1_000, 2_000, 4_000, 8_000, 15_000];

/**
 * Polls GET /users until `is_syncing` is false: the user when the sync finished, undefined when it
 * was still running after the last check.
 */
export async function waitForSync(
  ci: CiSession,
  delaysMs: readonly number[] = SYNC_POLL_DELAYS_MS,
  sleep: (ms: number) => Promise<unknown> = delay,
): Promise<User | undefined> {
  for (const ms of delaysMs) {
    await sleep(ms);
    const user = await getCurrentUser(ci);
    if (!user.is_syncing) return user;
  }
  return undefined;
}
