import { type BuildDetail, getBranch, getBuild, listBuilds } from '../ci/builds.js';
import type { CiSession } from '../ci/client.js';
import { CiError } from '../ci/errors.js';
import { getJob, type JobDetail } from '../ci/jobs.js';
import { getRepo } from '../ci/repos.js';
import type { Repository } from '../ci/schemas.js';
import type { BuildRef, JobRef, RepoRef } from './references.js';

/**
 * Turns what a user typed (a repository, build or job reference) into the CI resources, with the
 * repository alongside so messages can name and link it. Not found answers carry a subject that
 * says what was looked for.
 */

export function repoKey(ref: RepoRef): number | string {
  return ref.kind === 'id' ? ref.id : ref.slug;
}

export function describeRepoRef(ref: RepoRef): string {
  return ref.kind === 'id' ? `repository ${ref.id}` : ref.slug;
}

export function describeBuildRef(ref: BuildRef): string {
  switch (ref.kind) {
    case 'id':
    case 'url':
      return `build ${ref.id}`;
    case 'number':
      return `build #${ref.number} of ${describeRepoRef(ref.repo)}`;
    case 'branch':
      return `the last build of ${ref.branch} in ${describeRepoRef(ref.repo)}`;
  }
}

export function describeJobRef(ref: JobRef): string {
  return ref.kind === 'number' ? `job #${ref.number} of ${describeRepoRef(ref.repo)}` : `job ${ref.id}`;
}

export async function resolveRepo(ci: CiSession, ref: RepoRef): Promise<Repository> {
  return getRepo(ci, repoKey(ref));
}

export interface ResolvedBuild extends BuildDetail {
  repo: Repository;
}

export async function resolveBuild(ci: CiSession, ref: BuildRef): Promise<ResolvedBuild> {
  const detail = await findBuild(ci, ref);
  const repo = await getRepo(ci, detail.build.repository_id);
  return { ...detail, repo };
}

async function findBuild(ci: CiSession, ref: BuildRef): Promise<BuildDetail> {
  switch (ref.kind) {
    case 'id':
    case 'url':
      return getBuild(ci, ref.id);
    case 'number': {
      const key = repoKey(ref.repo);
      const list = await listBuilds(ci, {
        ...(typeof key === 'number' ? { repositoryId: key } : { slug: key }),
        number: ref.number,
      });
      const build = list.builds.find((b) => b.number === ref.number);
      if (!build) throw notFound(describeBuildRef(ref));
      return getBuild(ci, build.id);
    }
    case 'branch': {
      const { branch } = await getBranch(ci, repoKey(ref.repo), ref.branch);
      return getBuild(ci, branch.id);
    }
  }
}

export interface ResolvedJob extends JobDetail {
  repo: Repository;
}

export async function resolveJob(ci: CiSession, ref: JobRef): Promise<ResolvedJob> {
  if (ref.kind === 'number') {
    const [buildNumber = ''] = ref.number.split('.');
    const build = await resolveBuild(ci, { kind: 'number', repo: ref.repo, number: buildNumber });
    const job = build.jobs.find((j) => j.number === ref.number);
    if (!job) throw notFound(describeJobRef(ref));
    return { job, commit: build.commit, repo: build.repo };
  }
  const detail = await getJob(ci, ref.id);
  const repo = await getRepo(ci, detail.job.repository_id);
  return { ...detail, repo };
}

function notFound(subject: string): CiError {
  return new CiError('not_found', `Not found: ${subject}`, {});
}
