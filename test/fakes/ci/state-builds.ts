/**
 * Builds with their commits, jobs and requests, the state moves of cancel and restart, and the
 * realtime messages each change sends. Logs live one layer down, in `state-logs.ts`.
 */
import { createHash } from 'node:crypto';
import { buildEventFor, buildPayload, jobEventFor, jobPayload, recordChannels } from './realtime.js';
import {
  type BuildRecord,
  type CiConfig,
  type CiState,
  type CommitRecord,
  type EventType,
  isFinished,
  type JobRecord,
  type RepoRecord,
  type RequestRecord,
} from './records.js';
import { FakeStateError, isoNow } from './state-base.js';
import { LogsState } from './state-logs.js';
import { defaultTimes, matrixState, movedTimes } from './transitions.js';

export type RepoRef = number | string | RepoRecord;

export interface JobInput {
  id?: number;
  number?: string;
  state?: CiState;
  config?: CiConfig;
  startedAt?: string | null;
  finishedAt?: string | null;
  queue?: string;
  allowFailure?: boolean;
  tags?: string;
  logId?: number;
  /** Initial log text; `null` creates the job without any log (as for purged logs). Default ''. */
  log?: string | null;
}

export interface AddBuildInput {
  id?: number;
  /** Default: one more than the repository's highest build number. */
  number?: string | number;
  /** Default 'created'. */
  state?: CiState;
  branch?: string;
  tag?: string | null;
  /** Default 'push'. */
  eventType?: EventType;
  pullRequestNumber?: number;
  pullRequestTitle?: string;
  message?: string;
  authorName?: string;
  authorEmail?: string;
  committerName?: string;
  committerEmail?: string;
  sha?: string;
  committedAt?: string;
  compareUrl?: string;
  commitId?: number;
  config?: CiConfig;
  /** A count, or one entry per job. Default 1. */
  jobs?: number | JobInput[];
  startedAt?: string | null;
  finishedAt?: string | null;
  duration?: number | null;
}

export type BuildPatch = Partial<
  Pick<BuildRecord, 'state' | 'startedAt' | 'finishedAt' | 'duration' | 'config' | 'pullRequestTitle'>
>;
export type JobPatch = Partial<
  Pick<JobRecord, 'state' | 'startedAt' | 'finishedAt' | 'queue' | 'allowFailure' | 'config' | 'tags'>
>;

export interface AddRequestInput {
  id?: number;
  result?: 'accepted' | 'rejected' | null;
  message?: string | null;
  eventType?: EventType;
  branch?: string;
  tag?: string | null;
  pullRequestNumber?: number | null;
  pullRequestTitle?: string | null;
  /** Default: a new commit on `branch`. */
  commitId?: number;
  commitMessage?: string;
  createdAt?: string;
}

const DEFAULT_CONFIG: CiConfig = { language: 'ruby', os: 'linux', '.result': 'configured' };

export class BuildsState extends LogsState {
  getBuild(id: number): BuildRecord | undefined {
    return this.builds.get(id);
  }

  getCommit(id: number): CommitRecord | undefined {
    return this.commits.get(id);
  }

  getRequest(id: number): RequestRecord | undefined {
    return this.requests.get(id);
  }

  /** The repository's builds, newest (highest number) first. */
  buildsOf(repoId: number): BuildRecord[] {
    return [...this.builds.values()]
      .filter((build) => build.repositoryId === repoId)
      .sort((a, b) => Number(b.number) - Number(a.number) || b.id - a.id);
  }

  jobsOf(build: BuildRecord): JobRecord[] {
    return build.jobIds.flatMap((id) => this.jobs.get(id) ?? []);
  }

  addCommit(repoRef: RepoRef, input: Partial<Omit<CommitRecord, 'repositoryId'>> = {}): CommitRecord {
    const repo = this.requireRepo(repoRef);
    const id = this.claimId(input.id, this.commits, 'commit');
    const sha = input.sha ?? createHash('sha1').update(`${repo.slug}:${id}`).digest('hex');
    const commit: CommitRecord = {
      id,
      repositoryId: repo.id,
      sha,
      branch: input.branch ?? repo.defaultBranch,
      tag: input.tag ?? null,
      message: input.message ?? 'Update README',
      committedAt: input.committedAt ?? isoNow(),
      authorName: input.authorName ?? 'Ada Lovelace',
      authorEmail: input.authorEmail ?? 'ada@example.com',
      committerName: input.committerName ?? input.authorName ?? 'Ada Lovelace',
      committerEmail: input.committerEmail ?? input.authorEmail ?? 'ada@example.com',
      compareUrl: input.compareUrl ?? `https://github.com/${repo.slug}/commit/${sha.slice(0, 12)}`,
      pullRequestNumber: input.pullRequestNumber ?? null,
    };
    this.commits.set(commit.id, commit);
    return commit;
  }

  /** Adds a build with its commit, request (accepted) and jobs; emits build:created and job:created. */
  addBuild(repoRef: RepoRef, input: AddBuildInput = {}): BuildRecord {
    const repo = this.requireRepo(repoRef);
    const eventType = input.eventType ?? 'push';
    const isPr = eventType === 'pull_request';
    const existing = input.commitId === undefined ? undefined : this.commits.get(input.commitId);
    const commit =
      existing ??
      this.addCommit(repo, {
        id: input.commitId,
        sha: input.sha,
        branch: input.branch,
        tag: input.tag,
        message: input.message,
        committedAt: input.committedAt,
        authorName: input.authorName,
        authorEmail: input.authorEmail,
        committerName: input.committerName,
        committerEmail: input.committerEmail,
        compareUrl: input.compareUrl,
        pullRequestNumber: isPr ? (input.pullRequestNumber ?? 1) : undefined,
      });
    const request = this.addRequest(repo, {
      result: 'accepted',
      eventType,
      branch: commit.branch,
      commitId: commit.id,
      pullRequestNumber: isPr ? (input.pullRequestNumber ?? 1) : null,
      pullRequestTitle: isPr ? (input.pullRequestTitle ?? commit.message) : null,
    });
    const state = input.state ?? 'created';
    const times = defaultTimes(state);
    const build: BuildRecord = {
      id: this.claimId(input.id, this.builds, 'build'),
      repositoryId: repo.id,
      commitId: commit.id,
      requestId: request.id,
      number: String(input.number ?? this.nextBuildNumber(repo)),
      eventType,
      pullRequestTitle: isPr ? (input.pullRequestTitle ?? commit.message) : null,
      pullRequestNumber: isPr ? (input.pullRequestNumber ?? 1) : null,
      config: input.config ?? { ...DEFAULT_CONFIG },
      state,
      startedAt: input.startedAt !== undefined ? input.startedAt : times.startedAt,
      finishedAt: input.finishedAt !== undefined ? input.finishedAt : times.finishedAt,
      duration: input.duration !== undefined ? input.duration : times.finishedAt ? 0 : null,
      jobIds: [],
    };
    this.builds.set(build.id, build);
    const jobInputs =
      typeof input.jobs === 'number' ? Array.from({ length: input.jobs }, () => ({})) : input.jobs;
    for (const [index, jobInput] of (jobInputs ?? [{}]).entries()) {
      build.jobIds.push(this.createJob(build, index + 1, jobInput).id);
    }
    this.refreshLastBuild(repo);
    this.announceBuild(build, 'created');
    for (const job of this.jobsOf(build)) this.announceJob(job, 'created');
    return build;
  }

  private createJob(build: BuildRecord, index: number, input: JobInput): JobRecord {
    const state = input.state ?? build.state;
    const times = defaultTimes(state);
    const job: JobRecord = {
      id: this.claimId(input.id, this.jobs, 'job'),
      buildId: build.id,
      repositoryId: build.repositoryId,
      commitId: build.commitId,
      logId: input.logId ?? this.nextId(),
      number: input.number ?? `${build.number}.${index}`,
      config: input.config ?? { ...build.config },
      state,
      startedAt: input.startedAt !== undefined ? input.startedAt : times.startedAt,
      finishedAt: input.finishedAt !== undefined ? input.finishedAt : times.finishedAt,
      queue: input.queue ?? 'builds.linux',
      allowFailure: input.allowFailure ?? false,
      tags: input.tags ?? '',
    };
    this.jobs.set(job.id, job);
    if (input.log !== null) this.setLog(job.id, input.log ?? '');
    return job;
  }

  private nextBuildNumber(repo: RepoRecord): number {
    const numbers = this.buildsOf(repo.id).map((b) => Number(b.number));
    numbers.push(Number(repo.lastBuildNumber ?? 0));
    return Math.max(0, ...numbers.filter(Number.isFinite)) + 1;
  }

  /**
   * Changes a build. A state change fills in times the patch leaves out (started → started_at,
   * finished → finished_at and duration, created → both cleared) and emits the matching build event.
   * Jobs are not touched.
   */
  updateBuild(id: number, patch: BuildPatch): BuildRecord {
    const build = this.builds.get(id);
    if (!build) throw new FakeStateError(`no build ${id}`);
    const previous = build.state;
    if (patch.state !== undefined && patch.state !== previous)
      Object.assign(build, movedTimes(build, patch.state));
    Object.assign(build, patch);
    this.refreshLastBuild(this.requireRepo(build.repositoryId));
    const event = buildEventFor(previous, build.state);
    if (event) this.announceBuild(build, event);
    return build;
  }

  /** Changes a job, filling in times like `updateBuild`; emits the matching job event. */
  updateJob(id: number, patch: JobPatch): JobRecord {
    const job = this.jobs.get(id);
    if (!job) throw new FakeStateError(`no job ${id}`);
    const previous = job.state;
    if (patch.state !== undefined && patch.state !== previous) {
      const { startedAt, finishedAt } = movedTimes(job, patch.state);
      Object.assign(job, { startedAt, finishedAt });
    }
    Object.assign(job, patch);
    const event = jobEventFor(previous, job.state);
    if (event) this.announceJob(job, event);
    return job;
  }

  /** What POST /builds/{id}/cancel does. `false` when the build already finished. */
  cancelBuild(id: number): boolean {
    const build = this.builds.get(id);
    if (!build || isFinished(build.state)) return false;
    for (const job of this.jobsOf(build))
      if (!isFinished(job.state)) this.updateJob(job.id, { state: 'canceled' });
    this.updateBuild(id, { state: 'canceled' });
    return true;
  }

  /** What POST /builds/{id}/restart does. `false` unless the build finished. */
  restartBuild(id: number): boolean {
    const build = this.builds.get(id);
    if (!build || !isFinished(build.state)) return false;
    for (const job of this.jobsOf(build)) this.resetJob(job);
    this.updateBuild(id, { state: 'created' });
    return true;
  }

  /** What POST /jobs/{id}/cancel does; the build finishes once all its jobs have. */
  cancelJob(id: number): boolean {
    const job = this.jobs.get(id);
    if (!job || isFinished(job.state)) return false;
    this.updateJob(id, { state: 'canceled' });
    const build = this.builds.get(job.buildId);
    if (build && !isFinished(build.state)) {
      const jobs = this.jobsOf(build);
      if (jobs.every((j) => isFinished(j.state))) this.updateBuild(build.id, { state: matrixState(jobs) });
    }
    return true;
  }

  /** What POST /jobs/{id}/restart does: the job starts over, and a finished build with it. */
  restartJob(id: number): boolean {
    const job = this.jobs.get(id);
    if (!job || !isFinished(job.state)) return false;
    this.resetJob(job);
    const build = this.builds.get(job.buildId);
    if (build && isFinished(build.state)) this.updateBuild(build.id, { state: 'created' });
    return true;
  }

  private resetJob(job: JobRecord): void {
    const log = this.getLog(job.id);
    if (log) Object.assign(log, { parts: [], archived: false });
    this.updateJob(job.id, { state: 'created' });
  }

  // ---- requests ----

  addRequest(repoRef: RepoRef, input: AddRequestInput = {}): RequestRecord {
    const repo = this.requireRepo(repoRef);
    const eventType = input.eventType ?? 'push';
    const commit =
      (input.commitId === undefined ? undefined : this.commits.get(input.commitId)) ??
      this.addCommit(repo, { branch: input.branch, message: input.commitMessage, tag: input.tag });
    const owner = this.getUser(repo.ownerName);
    const account = this.accounts.get(repo.ownerName);
    const isPr = eventType === 'pull_request';
    const request: RequestRecord = {
      id: this.claimId(input.id, this.requests, 'request'),
      repositoryId: repo.id,
      commitId: commit.id,
      createdAt: input.createdAt ?? isoNow(),
      ownerId: owner?.id ?? account?.id ?? 1,
      ownerType: account?.type === 'organization' ? 'Organization' : 'User',
      eventType,
      baseCommit: isPr ? commit.sha : null,
      headCommit: isPr ? commit.sha : null,
      result: input.result === undefined ? 'accepted' : input.result,
      message: input.message ?? null,
      pullRequest: isPr,
      pullRequestNumber: input.pullRequestNumber ?? (isPr ? 1 : null),
      pullRequestTitle: input.pullRequestTitle ?? null,
      branch: input.branch ?? commit.branch,
      tag: input.tag ?? null,
    };
    this.requests.set(request.id, request);
    return request;
  }

  // ---- internals ----

  /** Copies the newest build's fields onto the repository (`last_build_*`). */
  protected refreshLastBuild(repo: RepoRecord): void {
    const latest = [...this.builds.values()]
      .filter((b) => b.repositoryId === repo.id)
      .reduce<BuildRecord | undefined>((a, b) => (a && a.id > b.id ? a : b), undefined);
    if (!latest) return;
    Object.assign(repo, {
      lastBuildId: latest.id,
      lastBuildNumber: latest.number,
      lastBuildState: latest.state,
      lastBuildDuration: latest.duration,
      lastBuildStartedAt: latest.startedAt,
      lastBuildFinishedAt: latest.finishedAt,
    });
  }

  protected announceBuild(build: BuildRecord, event: string): void {
    const repo = this.requireRepo(build.repositoryId);
    const commit = this.commits.get(build.commitId);
    if (!commit) return;
    const data = buildPayload(build, commit, repo);
    for (const channel of recordChannels(repo, this.usersWithAccess(repo.id))) {
      this.emitPusher({ channel, event: `build:${event}`, data });
    }
  }

  protected announceJob(job: JobRecord, event: string): void {
    const repo = this.requireRepo(job.repositoryId);
    const commit = this.commits.get(job.commitId);
    if (!commit) return;
    const data = jobPayload(job, commit, repo);
    for (const channel of recordChannels(repo, this.usersWithAccess(repo.id))) {
      this.emitPusher({ channel, event: `job:${event}`, data });
    }
  }
}
