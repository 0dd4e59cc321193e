import { z } from 'zod';
import { buildSchema, commitSchema, isFinished, type Job, jobSchema } from '../ci/schemas.js';
import { DEPLOYMENTS } from '../config.js';
import type { BuildFacts } from './filters.js';
import type { BuildUpdate } from './types.js';

/**
 * What the notifier keeps of a build update: everything its messages show, without the parts that
 * can be large and are never shown (the build's whole configuration, long job configuration
 * values), so that it can be kept in memory and, when needed, in Redis.
 */

/** Job configuration values longer than this (as JSON) are dropped: they never reach a message. */
const MAX_CONFIG_VALUE_CHARS = 300;

export const snapshotSchema = z.object({
  deployment: z.enum(DEPLOYMENTS),
  repo: z.object({ id: z.number().int().positive(), slug: z.string().min(1).max(300) }),
  build: buildSchema,
  commit: commitSchema.optional(),
  jobs: z.array(jobSchema),
  /** The state of the previous finished build of the same branch or pull request, when known. */
  previousState: z.string().optional(),
});

export type BuildSnapshot = z.output<typeof snapshotSchema>;

/** Where a build stands, as far as ordering its updates goes. */
export type BuildProgress = Pick<BuildSnapshot['build'], 'state' | 'started_at' | 'finished_at'>;

export function progressOf(build: BuildProgress): BuildProgress {
  return { state: build.state, started_at: build.started_at ?? null, finished_at: build.finished_at ?? null };
}

export function snapshotOf(update: BuildUpdate): BuildSnapshot {
  const { config: _config, ...build } = update.build;
  return {
    deployment: update.deployment,
    repo: { id: update.repo.id, slug: update.repo.slug },
    build,
    commit: update.commit,
    jobs: update.jobs.map(slimJob),
  };
}

function slimJob(job: Job): Job {
  if (!job.config) return job;
  const config: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(job.config)) {
    if ((JSON.stringify(value) ?? '').length <= MAX_CONFIG_VALUE_CHARS) config[key] = value;
  }
  return { ...job, config };
}

/** Identifies a build across replicas: `com:4125095`. */
export function buildKeyOf(snapshot: Pick<BuildSnapshot, 'deployment' | 'build'>): string {
  return `${snapshot.deployment}:${snapshot.build.id}`;
}

/** What the filters look at. */
export function factsOf(snapshot: BuildSnapshot): BuildFacts {
  const { build, commit } = snapshot;
  return {
    state: build.state,
    branch: commit?.branch ?? null,
    eventType: build.event_type ?? null,
    pullRequest: build.pull_request === true,
    authorName: commit?.author_name ?? null,
    authorEmail: commit?.author_email ?? null,
    committerName: commit?.committer_name ?? null,
  };
}

/**
 * Whose history a build continues, for `only:changes`: a pull request's builds compare with the
 * earlier builds of that pull request (a failing pull request does not break its target branch),
 * every other build with the earlier builds of its branch. Undefined when the build names neither.
 */
export function historyOriginOf(snapshot: BuildSnapshot): string | undefined {
  const { build, commit } = snapshot;
  const isPullRequest =
    (build.event_type ?? (build.pull_request ? 'pull_request' : 'push')) === 'pull_request';
  const number = build.pull_request_number ?? commit?.pull_request_number ?? undefined;
  if (isPullRequest && number !== undefined) return `pr:${number}`;
  const branch = commit?.branch;
  return branch ? `branch:${branch}` : undefined;
}

/**
 * One attempt of a build: a restart runs the same build again and finishes at another time. Used
 * in idempotency keys, so the failure reply is posted once per attempt.
 */
export function attemptOf(build: BuildSnapshot['build']): string {
  return build.finished_at ?? build.started_at ?? 'unknown';
}

const time = (iso: string | null | undefined) => (iso ? Date.parse(iso) : Number.NaN);

/**
 * True when `incoming` is certainly older than `current` (the same build seen before): updates can
 * arrive late (a poll answered before a realtime event, a replica that lost its lease). What only
 * a restart can explain is not stale: a waiting build after the end (the restart's `created`), or
 * a running or finished attempt that started after the last one ended. Times equal to the end
 * count as the same attempt, so a late "running" never replaces a final state; a restart whose
 * start falls in that very second is then shown from its end on.
 */
export function isStale(current: BuildProgress, incoming: BuildProgress): boolean {
  const currentDone = isFinished(current.state);
  const incomingDone = isFinished(incoming.state);
  const started = { current: time(current.started_at), incoming: time(incoming.started_at) };
  const finished = { current: time(current.finished_at), incoming: time(incoming.finished_at) };
  if (currentDone && incomingDone) return finished.incoming < finished.current;
  if (currentDone) return started.incoming <= finished.current;
  // The end of an attempt older than the one running now.
  if (incomingDone) return finished.incoming < started.current;
  // Waiting again after it started can only be old news: a build starts over only once it ended.
  if (!Number.isNaN(started.current) && Number.isNaN(started.incoming)) return true;
  return started.incoming < started.current;
}
