import { type BuildList, listRepoBuilds } from '../ci/builds.js';
import type { CiSession } from '../ci/client.js';
import { getRepo } from '../ci/repos.js';
import type { Build, Commit, Job, Repository } from '../ci/schemas.js';
import type { RepoRef } from './references.js';
import { repoKey } from './resolve.js';

/**
 * Build lists: one page of a repository's builds, newest first, each with its commit, filtered by
 * event type (which the service does) and by branch (which it does not: the V2.1 list has no branch
 * parameter, so pages are read until enough builds of the branch are found or a scan limit is hit).
 */

/** What the service returns per page of `GET /repos/{repo}/builds`. */
export const SERVICE_PAGE_SIZE = 25;
/** Builds shown per page in Slack. */
export const BUILDS_PER_PAGE = 20;
/** With a branch filter, at most this many service pages are read for one Slack page. */
export const MAX_PAGES_PER_SCAN = 4;

export type BuildEventFilter = 'push' | 'pull_request';

export interface BuildFilters {
  branch?: string | undefined;
  event?: BuildEventFilter | undefined;
}

export interface BuildEntry {
  build: Build;
  /** The build's commit (joined from the list's `commits` by `commit_id`), when the service sent it. */
  commit: Commit | undefined;
  /** The build's jobs, when the service sent them with the list. */
  jobs: Job[];
}

export interface BuildPage {
  repo: Repository;
  entries: BuildEntry[];
  filters: BuildFilters;
  /** The page asked for: builds numbered below this one. */
  afterNumber: string | undefined;
  /** Where the next (older) page starts, when there may be one. */
  nextAfterNumber: string | undefined;
  /** True when a branch scan stopped at MAX_PAGES_PER_SCAN without filling the page. */
  scanLimited: boolean;
}

/** Each build of a list with its commit and jobs; a build whose commit is missing keeps `undefined`. */
export function joinBuildList(list: BuildList): BuildEntry[] {
  const commits = new Map(list.commits.map((c) => [c.id, c]));
  const jobsByBuild = new Map<number, Job[]>();
  for (const job of list.jobs) jobsByBuild.set(job.build_id, [...(jobsByBuild.get(job.build_id) ?? []), job]);
  return list.builds.map((build) => ({
    build,
    commit: build.commit_id == null ? undefined : commits.get(build.commit_id),
    jobs: jobsByBuild.get(build.id) ?? [],
  }));
}

/** One page of a repository's builds (the repository is fetched alongside, for its slug and links). */
export async function listBuildPage(
  ci: CiSession,
  ref: RepoRef,
  filters: BuildFilters = {},
  afterNumber?: string,
): Promise<BuildPage> {
  const key = repoKey(ref);
  const [repo, scan] = await Promise.all([getRepo(ci, key), scanBuilds(ci, key, filters, afterNumber)]);
  return { repo, filters, afterNumber, ...scan };
}

interface Scan {
  entries: BuildEntry[];
  nextAfterNumber: string | undefined;
  scanLimited: boolean;
}

async function scanBuilds(
  ci: CiSession,
  key: number | string,
  filters: BuildFilters,
  afterNumber: string | undefined,
): Promise<Scan> {
  const entries: BuildEntry[] = [];
  let after = afterNumber;
  const maxPages = filters.branch === undefined ? 1 : MAX_PAGES_PER_SCAN;
  for (let page = 0; page < maxPages; page++) {
    const list = await listRepoBuilds(ci, key, {
      ...(after !== undefined ? { afterNumber: after } : {}),
      ...(filters.event ? { eventType: filters.event } : {}),
    });
    const joined = joinBuildList(list);
    for (const entry of joined) {
      if (filters.branch !== undefined && entry.commit?.branch !== filters.branch) continue;
      entries.push(entry);
      if (entries.length === BUILDS_PER_PAGE) {
        // Older builds start after the last one shown, even when it sat mid-page.
        return { entries, nextAfterNumber: entry.build.number, scanLimited: false };
      }
    }
    const last = joined.at(-1);
    // A short page is the last one.
    if (!last || joined.length < SERVICE_PAGE_SIZE) {
      return { entries, nextAfterNumber: undefined, scanLimited: false };
    }
    after = last.build.number;
  }
  return { entries, nextAfterNumber: after, scanLimited: filters.branch !== undefined };
}

export interface RepoStatus {
  repo: Repository;
  /** The repository's last build, as the repository record summarises it; undefined before the first. */
  lastBuild:
    | {
        id: number;
        number: string | undefined;
        state: string | undefined;
        duration: number | undefined;
        startedAt: string | undefined;
        finishedAt: string | undefined;
      }
    | undefined;
}

/** What `travis status` shows: the last build of a repository, from one request. */
export async function repoStatus(ci: CiSession, ref: RepoRef): Promise<RepoStatus> {
  const repo = await getRepo(ci, repoKey(ref));
  const id = repo.last_build_id;
  return {
    repo,
    lastBuild:
      id == null
        ? undefined
        : {
            id,
            number: repo.last_build_number,
            state: repo.last_build_state ?? undefined,
            duration: repo.last_build_duration ?? undefined,
            startedAt: repo.last_build_started_at ?? undefined,
            finishedAt: repo.last_build_finished_at ?? undefined,
          },
  };
}
