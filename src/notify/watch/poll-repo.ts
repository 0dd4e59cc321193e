import { type BuildDetail, type BuildList, getBuild, listRepoBuilds } from '../../ci/builds.js';
import type { CiSession } from '../../ci/client.js';
import { isCiError } from '../../ci/errors.js';
import { type Build, type Commit, isFinished, type Job } from '../../ci/schemas.js';
import type { BuildUpdate } from '../types.js';
import type { Sighting } from './change-detector.js';
import type { WatchContext } from './context.js';
import type { RepoState } from './repo-state.js';
import type { RepoWatch } from './repo-watch.js';
import { buildPart, buildPartOf } from './signature.js';

/** Pages read when a burst of new builds fills the first page (catching up after an outage). */
const MAX_PAGES = 4;

interface Seen {
  build: Build;
  commit: Commit | undefined;
  /** Undefined when the answer did not carry every job of the build. */
  jobs: Job[] | undefined;
}

/**
 * One poll of one repository: its newest builds (one small page), plus GET /builds/{id} for a build
 * whose jobs the page lacks (when they matter) and for unfinished builds that dropped off the page.
 * Every build that is new or changed is offered to the change detector; the repository's state
 * (highest build handled, builds still open) is saved for the next poll or the next holder.
 */
export async function pollRepo(ctx: WatchContext, repo: RepoWatch): Promise<void> {
  const { services, detector, tokens } = ctx;
  const { deployment, repoId, slug } = repo.info;
  const before = await repo.state(services.kv);
  const observedAt = Date.now();
  const listed = await tokens.withToken(repo.info, repo.subscription?.id, (session) => {
    ctx.count('poll');
    return listRepoBuilds(session, repoId);
  });
  if (!listed) {
    repo.session = undefined;
    return;
  }
  repo.use(listed.subscription, listed.session);
  const { session } = listed;
  const page = await catchUp(ctx, session, repoId, listed.value, before);
  const fetchBuild = (id: number): Promise<BuildDetail> => {
    ctx.count('poll');
    return getBuild(session, id);
  };

  const commits = new Map(page.commits.map((commit) => [commit.id, commit]));
  const jobsByBuild = groupJobs(page.jobs);
  const onPage = new Set(page.builds.map((build) => build.id));
  const sightings: Seen[] = page.builds.map((build) => ({
    build,
    commit: build.commit_id == null ? undefined : commits.get(build.commit_id),
    jobs: completeJobs(build, jobsByBuild.get(build.id)),
  }));
  const dropped = repo.droppedOpen(onPage);
  const gone = new Set<number>();
  for (const id of dropped) {
    try {
      const detail = await fetchBuild(id);
      sightings.push({ build: detail.build, commit: detail.commit, jobs: detail.jobs });
    } catch (error) {
      if (!isCiError(error, 'not_found')) throw error;
      gone.add(id);
    }
  }

  const seen = await detector.seenMany(
    deployment,
    sightings.map((s) => s.build.id),
  );
  const offers: Sighting[] = [];
  for (const sighting of sightings) {
    const stored = seen.get(sighting.build.id) ?? null;
    if (stored === null && detector.isHistory(sighting.build, before)) continue;
    let { build, commit, jobs } = sighting;
    if (jobs === undefined) {
      // Without its jobs a finished build is only worth a request when its own state moved.
      if (isFinished(build.state) && stored !== null && buildPartOf(stored) === buildPart(build)) continue;
      const detail = await fetchBuild(build.id);
      build = detail.build;
      commit = detail.commit ?? commit;
      jobs = detail.jobs;
      sighting.build = build;
    }
    const update: BuildUpdate = {
      deployment,
      repo: { id: repoId, slug },
      build,
      commit,
      jobs,
      source: 'poll',
    };
    offers.push({ update, observedAt, seen: stored, repoState: before });
  }
  const outcomes = await Promise.allSettled(offers.map((offer) => detector.offer(offer)));
  const failed: number[] = [];
  for (const [index, outcome] of outcomes.entries()) {
    if (outcome.status === 'fulfilled') continue;
    const buildId = offers[index]?.update.build.id ?? 0;
    failed.push(buildId);
    ctx.logger.warn(
      { err: outcome.reason, repo: repo.key, build: buildId },
      'could not hand a build update on',
    );
  }

  const checked = new Set([...onPage, ...dropped]);
  const open = [
    ...sightings.filter((s) => !isFinished(s.build.state)).map((s) => s.build.id),
    ...repo.open.filter((id) => !checked.has(id) && !gone.has(id)),
  ];
  await repo.save(services.kv, { maxBuildId: nextMaxBuildId(before, onPage, failed), open }, ctx.seenTtlMs);
}

/**
 * More pages while the oldest build of the last one is newer than every build handled before: more
 * builds came since the last poll than one page holds, and none of them may be skipped.
 */
async function catchUp(
  ctx: WatchContext,
  session: CiSession,
  repoId: number,
  first: BuildList,
  before: RepoState | undefined,
): Promise<BuildList> {
  if (!before) return first;
  const all: BuildList = { builds: [...first.builds], commits: [...first.commits], jobs: [...first.jobs] };
  let last = first;
  for (let pages = 1; pages < MAX_PAGES; pages++) {
    const oldest = last.builds.at(-1);
    if (!oldest || oldest.id <= before.maxBuildId) break;
    ctx.count('poll');
    last = await listRepoBuilds(session, repoId, { afterNumber: oldest.number });
    const known = new Set(all.builds.map((b) => b.id));
    all.builds.push(...last.builds.filter((b) => !known.has(b.id)));
    all.commits.push(...last.commits);
    all.jobs.push(...last.jobs);
  }
  return all;
}

/**
 * The highest build id handled after this poll: every build on the page, except that a build whose
 * update failed keeps the mark below it, so it is still treated as new (not history) next time.
 */
function nextMaxBuildId(
  before: RepoState | undefined,
  onPage: ReadonlySet<number>,
  failed: number[],
): number {
  const previous = before?.maxBuildId ?? 0;
  const highest = Math.max(previous, ...onPage);
  if (failed.length === 0) return highest;
  return Math.max(previous, Math.min(highest, Math.min(...failed) - 1));
}

function groupJobs(jobs: Job[]): Map<number, Job[]> {
  const byBuild = new Map<number, Job[]>();
  for (const job of jobs) {
    const list = byBuild.get(job.build_id);
    if (list) list.push(job);
    else byBuild.set(job.build_id, [job]);
  }
  return byBuild;
}

/** The build's jobs in its own order when the answer carried all of them; undefined otherwise. */
function completeJobs(build: Build, jobs: Job[] | undefined): Job[] | undefined {
  if (build.job_ids.length === 0) return jobs ?? [];
  const byId = new Map((jobs ?? []).map((job) => [job.id, job]));
  const ordered = build.job_ids.flatMap((id) => byId.get(id) ?? []);
  return ordered.length === build.job_ids.length ? ordered : undefined;
}
