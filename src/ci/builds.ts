import { z } from 'zod';
import type { CiSession } from './client.js';
import { badRequest } from './errors.js';
import { idSegment, type RepoKey, repoPath, textSegment } from './paths.js';
import {
  type Build,
  buildSchema,
  type Commit,
  commitSchema,
  type Job,
  jobSchema,
  sideloadedCommitSchema,
} from './schemas.js';

export interface BuildList {
  builds: Build[];
  commits: Commit[];
  jobs: Job[];
}

export interface BuildDetail {
  build: Build;
  commit?: Commit;
  jobs: Job[];
}

const buildListSchema = z.looseObject({
  builds: z.array(buildSchema),
  commits: z.array(commitSchema).default([]),
  jobs: z.array(jobSchema).default([]),
});

const buildDetailSchema = z.looseObject({
  build: buildSchema,
  commit: sideloadedCommitSchema,
  jobs: z.array(jobSchema).default([]),
});

export interface RepoBuildsQuery {
  number?: string;
  /** Pagination: builds with a lower number than this one. */
  afterNumber?: string;
  eventType?: 'push' | 'pull_request' | (string & {});
}

export interface BuildsQuery extends RepoBuildsQuery {
  ids?: number[];
  repositoryId?: number;
  slug?: string;
}

/** 4.6 GET /builds — needs ids, repository_id or slug; number/after_number only with slug or repository_id. */
export async function listBuilds(ci: CiSession, query: BuildsQuery): Promise<BuildList> {
  const hasRepo = query.repositoryId !== undefined || query.slug !== undefined;
  if (!hasRepo && !query.ids?.length) throw badRequest('GET /builds needs one of ids, repository_id or slug');
  if (!hasRepo && (query.number !== undefined || query.afterNumber !== undefined)) {
    throw badRequest('number and after_number need slug or repository_id');
  }
  for (const id of query.ids ?? []) idSegment(id, 'build id');
  if (query.repositoryId !== undefined) idSegment(query.repositoryId, 'repository id');
  return ci.json(
    {
      method: 'GET',
      path: '/builds',
      query: {
        ids: query.ids,
        repository_id: query.repositoryId,
        slug: query.slug,
        number: query.number,
        after_number: query.afterNumber,
        event_type: query.eventType,
      },
    },
    buildListSchema,
  );
}

/** 4.6 GET /repos/{id}/builds and /repos/{owner}/{name}/builds */
export async function listRepoBuilds(
  ci: CiSession,
  repo: RepoKey,
  query: RepoBuildsQuery = {},
): Promise<BuildList> {
  return ci.json(
    {
      method: 'GET',
      path: `${repoPath(repo)}/builds`,
      query: { number: query.number, after_number: query.afterNumber, event_type: query.eventType },
    },
    buildListSchema,
  );
}

/** 4.6 GET /builds/{id}, or through the repository with either path form. */
export async function getBuild(
  ci: CiSession,
  buildId: number,
  options: { repo?: RepoKey } = {},
): Promise<BuildDetail> {
  const prefix = options.repo === undefined ? '' : repoPath(options.repo);
  return ci.json(
    { method: 'GET', path: `${prefix}/builds/${idSegment(buildId, 'build id')}` },
    buildDetailSchema,
  );
}

/** 4.6 POST /builds/{id}/cancel — never retried automatically. */
export async function cancelBuild(ci: CiSession, buildId: number): Promise<void> {
  await ci.send({
    method: 'POST',
    path: `/builds/${idSegment(buildId, 'build id')}/cancel`,
    requiresAuth: true,
  });
}

/** 4.6 POST /builds/{id}/restart — never retried automatically. */
export async function restartBuild(ci: CiSession, buildId: number): Promise<void> {
  await ci.send({
    method: 'POST',
    path: `/builds/${idSegment(buildId, 'build id')}/restart`,
    requiresAuth: true,
  });
}

export interface BranchList {
  branches: Build[];
  commits: Commit[];
}

/** 4.4 GET /repos/{repo}/branches — the latest build of each of the latest 25 branches. */
export async function listBranches(ci: CiSession, repo: RepoKey): Promise<BranchList> {
  return ci.json(
    { method: 'GET', path: `${repoPath(repo)}/branches` },
    z.looseObject({ branches: z.array(buildSchema), commits: z.array(commitSchema).default([]) }),
  );
}

/** 4.4 GET /repos/{repo}/branches/{branch} — the branch's latest build. */
export async function getBranch(
  ci: CiSession,
  repo: RepoKey,
  branch: string,
): Promise<{ branch: Build; commit?: Commit }> {
  return ci.json(
    { method: 'GET', path: `${repoPath(repo)}/branches/${textSegment(branch, 'a branch name')}` },
    z.looseObject({ branch: buildSchema, commit: sideloadedCommitSchema }),
  );
}
