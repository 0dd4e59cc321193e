/**
 * What travis-live would push for a change, as `{channel, event, data}` messages. The fake does not
 * run a WebSocket: it emits these on `FakeCi.events` ('pusher') and tests forward them to the fake
 * Pusher server.
 *
 * Channels (travis-live `Pusher::Task#channels`): `private-user-<id>` of every user with access, plus
 * `repo-<id>` when the repository is public. Log parts (travis-logs) go to `job-<id>`, or
 * `private-job-<id>` for private repositories.
 */
import {
  type BuildRecord,
  type CommitRecord,
  isFinished,
  type JobRecord,
  type LogPart,
  type RepoRecord,
  type UserRecord,
} from './records.js';
import { commitJson, type Json, repoJson } from './serialize.js';

export interface PusherMessage {
  channel: string;
  event: string;
  data: unknown;
}

export type BuildEvent = 'created' | 'started' | 'finished' | 'canceled' | 'restarted';
export type JobEvent = 'created' | 'queued' | 'received' | 'started' | 'finished' | 'canceled' | 'restarted';

/** travis-live replaces a payload whose JSON is longer than this by a stub. */
export const MAX_PAYLOAD_LENGTH = 10_000;

export function recordChannels(repo: RepoRecord, usersWithAccess: UserRecord[]): string[] {
  const channels = usersWithAccess.map((user) => `private-user-${user.id}`);
  if (!repo.private) channels.push(`repo-${repo.id}`);
  return channels;
}

export function logChannel(repo: RepoRecord, jobId: number): string {
  return repo.private ? `private-job-${jobId}` : `job-${jobId}`;
}

export function buildPayload(build: BuildRecord, commit: CommitRecord, repo: RepoRecord): Json {
  const payload = {
    build: {
      id: build.id,
      repository_id: build.repositoryId,
      commit_id: build.commitId,
      number: build.number,
      pull_request: build.eventType === 'pull_request',
      pull_request_title: build.pullRequestTitle,
      pull_request_number: build.pullRequestNumber,
      state: build.state,
      started_at: build.startedAt,
      finished_at: build.finishedAt,
      duration: build.duration,
      job_ids: [...build.jobIds],
      event_type: build.eventType,
    },
    commit: commitJson(commit),
    repository: { ...repoJson(repo), private: repo.private, active: repo.active },
  };
  return JSON.stringify(payload).length > MAX_PAYLOAD_LENGTH
    ? { build: { id: build.id }, _no_full_payload: true }
    : payload;
}

export function jobPayload(job: JobRecord, commit: CommitRecord, repo: RepoRecord): Json {
  const payload = {
    id: job.id,
    repository_id: job.repositoryId,
    repository_slug: repo.slug,
    repository_private: repo.private,
    build_id: job.buildId,
    commit_id: job.commitId,
    log_id: job.logId,
    number: job.number,
    state: job.state,
    started_at: job.startedAt,
    finished_at: job.finishedAt,
    queue: job.queue,
    allow_failure: job.allowFailure,
    annotation_ids: [],
    commit: commitJson(commit),
  };
  return JSON.stringify(payload).length > MAX_PAYLOAD_LENGTH
    ? { id: job.id, build_id: job.buildId, _no_full_payload: true }
    : payload;
}

/** travis-logs' payload: the text is `_log` (the spec calls it `content`). Never truncated. */
export function logPartPayload(jobId: number, part: LogPart): Json {
  return { id: jobId, _log: part.content, number: part.number, final: part.final };
}

/** The event a state change announces, or `undefined` when the change announces nothing. */
export function buildEventFor(previous: string, next: string): BuildEvent | undefined {
  if (previous === next) return undefined;
  if (next === 'created') return isFinished(previous) ? 'restarted' : 'created';
  if (next === 'started') return 'started';
  if (next === 'canceled') return 'canceled';
  if (next === 'passed' || next === 'failed' || next === 'errored') return 'finished';
  return undefined;
}

export function jobEventFor(previous: string, next: string): JobEvent | undefined {
  if (previous === next) return undefined;
  if (next === 'created') return isFinished(previous) ? 'restarted' : 'created';
  if (next === 'queued' || next === 'received' || next === 'started' || next === 'canceled') return next;
  if (next === 'passed' || next === 'failed' || next === 'errored') return 'finished';
  return undefined;
}
