import { listBranches } from '../ci/builds.js';
import type { CiSession } from '../ci/client.js';
import { setHook } from '../ci/repos.js';
import { listRequests, REQUESTS_MAX_LIMIT } from '../ci/requests.js';
import type { Build, BuildRequest, Commit, Repository } from '../ci/schemas.js';
import type { RepoRef } from './references.js';
import { resolveRepo } from './resolve.js';

/** Repository views and activation: `repo`, `enable`, `disable`, `branches`, `requests`. */

/** The repository with its description, activation and last build. */
export function showRepo(ci: CiSession, ref: RepoRef): Promise<Repository> {
  return resolveRepo(ci, ref);
}

/**
 * Turns builds on or off (PUT /hooks). The repository is looked up first: the hook is addressed by
 * id, and the answer names the repository by its slug.
 */
export async function setRepoActive(ci: CiSession, ref: RepoRef, active: boolean): Promise<Repository> {
  const repo = await resolveRepo(ci, ref);
  await setHook(ci, repo.id, active);
  return { ...repo, active };
}

export interface BranchBuild {
  branch: string | undefined;
  build: Build;
  commit: Commit | undefined;
}

/** The latest build of each recently built branch, as the service lists them (newest first). */
export async function latestBranchBuilds(
  ci: CiSession,
  ref: RepoRef,
): Promise<{ repo: Repository; branches: BranchBuild[] }> {
  const repo = await resolveRepo(ci, ref);
  const list = await listBranches(ci, repo.id);
  const commits = new Map(list.commits.map((c) => [c.id, c]));
  const branches = list.branches.map((build) => {
    const commit = build.commit_id == null ? undefined : commits.get(build.commit_id);
    return { branch: commit?.branch ?? undefined, build, commit };
  });
  return { repo, branches };
}

export interface RequestEntry {
  request: BuildRequest;
  commit: Commit | undefined;
}

/** Recent build requests (at most 100), newest first; rejected ones carry the reason in `message`. */
export async function recentRequests(
  ci: CiSession,
  ref: RepoRef,
  limit: number,
): Promise<{ repo: Repository; requests: RequestEntry[] }> {
  const repo = await resolveRepo(ci, ref);
  const answer = await listRequests(ci, {
    repositoryId: repo.id,
    limit: Math.min(Math.max(1, Math.trunc(limit)), REQUESTS_MAX_LIMIT),
  });
  const commits = new Map(answer.commits.map((c) => [c.id, c]));
  const requests = answer.requests.map((request) => ({
    request,
    commit: request.commit_id == null ? undefined : commits.get(request.commit_id),
  }));
  return { repo, requests };
}
