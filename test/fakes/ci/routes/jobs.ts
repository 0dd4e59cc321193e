/** Jobs and logs (spec 4.9, 4.10), including the archive redirect of plain-text log reads. */
import { ensureVisible, ensureWritable } from '../auth.js';
import {
  type Ctx,
  halt,
  idList,
  json,
  notFound,
  pathId,
  queryList,
  type Reply,
  text,
  v2Error,
} from '../http.js';
import type { JobRecord, LogRecord, RepoRecord } from '../records.js';
import { REQUIRED, type Route, route } from '../router.js';
import { commitJson, jobJson, logBody, logJson } from '../serialize.js';
import { restartFlash } from './builds.js';

const FILTER_LIMIT = 250;

/** Exactly one of ids, state, queue; state and queue return at most 250 jobs, newest first. */
function listJobs(ctx: Ctx): Reply {
  const ids = idList(queryList(ctx.query, 'ids'), 'ids');
  const states = queryList(ctx.query, 'state');
  const queue = ctx.query.get('queue');
  const given = [ids, states, queue ?? undefined].filter((v) => v !== undefined).length;
  if (given !== 1) return v2Error(400, 'invalid_parameters', 'give exactly one of ids, state, queue');
  const readable = (job: JobRecord) => {
    const repo = ctx.state.getRepo(job.repositoryId);
    return repo !== undefined && ctx.state.can(ctx.user, repo, 'read');
  };
  let jobs: JobRecord[];
  if (ids) {
    jobs = ids.flatMap((id) => ctx.state.getJob(id) ?? []).filter(readable);
  } else {
    jobs = [...ctx.state.jobs.values()]
      .filter((job) => (states ? states.includes(job.state) : job.queue === queue) && readable(job))
      .sort((a, b) => b.id - a.id)
      .slice(0, FILTER_LIMIT);
  }
  const commitIds = [...new Set(jobs.map((job) => job.commitId))];
  return json(200, {
    jobs: jobs.map((job) => jobJson(job, ctx.state.getRepo(job.repositoryId)?.slug)),
    commits: commitIds.flatMap((id) => ctx.state.getCommit(id) ?? []).map(commitJson),
  });
}

function visibleJob(ctx: Ctx, emptyBody: unknown): { job: JobRecord; repo: RepoRecord } {
  const job = ctx.state.getJob(pathId(ctx)) ?? halt(notFound());
  const repo = ctx.state.getRepo(job.repositoryId) ?? halt(notFound());
  ensureVisible(ctx, repo, emptyBody);
  return { job, repo };
}

function getJob(ctx: Ctx): Reply {
  const { job, repo } = visibleJob(ctx, {});
  const commit = ctx.state.getCommit(job.commitId);
  return json(200, { job: jobJson(job, repo.slug), commit: commit ? commitJson(commit) : null });
}

/** Same answers as the build endpoints (the real job endpoints mirror them). */
function cancelJob(ctx: Ctx): Reply {
  const { job, repo } = visibleJob(ctx, {});
  ensureWritable(
    ctx,
    repo,
    'push',
    {},
    json(403, { error: { message: `You don't have access to cancel job(${job.id})` } }),
  );
  if (!ctx.state.cancelJob(job.id)) {
    return json(422, { error: { message: `The job(${job.id}) can't be canceled`, code: 'cant_cancel' } });
  }
  return { status: 204 };
}

function restartJob(ctx: Ctx): Reply {
  const { job, repo } = visibleJob(ctx, {});
  ensureWritable(
    ctx,
    repo,
    'push',
    {},
    json(403, restartFlash(false, 'You do not seem to have sufficient permissions.')),
  );
  if (!ctx.state.restartJob(job.id))
    return json(400, restartFlash(false, 'This job currently can not be restarted.'));
  return json(202, restartFlash(true, 'The job was successfully restarted.'));
}

/** A log that is missing or archived lives (or would live) in object storage: 307 there. */
function plainLog(ctx: Ctx, jobId: number, log: LogRecord | undefined): Reply {
  if (!log || log.archived) {
    return { status: 307, headers: { location: `${ctx.archiveUrl}/jobs/${jobId}/log.txt` } };
  }
  return text(200, logBody(log));
}

/** GET /jobs/{id}/log: text/plain, or the log resource (the fixture's empty log when there is none). */
function jobLog(ctx: Ctx): Reply {
  const { job } = visibleJob(ctx, {});
  const log = ctx.state.getLog(job.id);
  if (ctx.accept === 'text') return plainLog(ctx, job.id, log);
  if (!log) return json(200, { log: { job_id: job.id, parts: [], '@type': 'Log' } });
  return json(200, logJson(log, ctx.accept === 'chunked'));
}

function logById(ctx: Ctx): Reply {
  const log = ctx.state.getLogById(pathId(ctx)) ?? halt(notFound());
  const job = ctx.state.getJob(log.jobId) ?? halt(notFound());
  const repo = ctx.state.getRepo(job.repositoryId) ?? halt(notFound());
  ensureVisible(ctx, repo, {});
  if (ctx.accept === 'text') return plainLog(ctx, job.id, log);
  return json(200, logJson(log, ctx.accept === 'chunked'));
}

export const jobRoutes: Route[] = [
  route('GET', '/jobs', listJobs),
  route('GET', '/jobs/:id', getJob),
  route('POST', '/jobs/:id/cancel', cancelJob, REQUIRED),
  route('POST', '/jobs/:id/restart', restartJob, REQUIRED),
  route('GET', '/jobs/:id/log', jobLog, { plainText: true }),
  route(
    'GET',
    '/jobs/:id/logs',
    (ctx) => {
      const { job } = visibleJob(ctx, {});
      return plainLog(ctx, job.id, ctx.state.getLog(job.id));
    },
    { plainText: true },
  ),
  route('GET', '/logs/:id', logById, { plainText: true }),
];
