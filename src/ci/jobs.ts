import { z } from 'zod';
import type { CiSession } from './client.js';
import { badRequest } from './errors.js';
import { idSegment } from './paths.js';
import { type Commit, commitSchema, type Job, jobSchema, sideloadedCommitSchema } from './schemas.js';

export interface JobDetail {
  job: Job;
  commit?: Commit;
}

/** 4.9 GET /jobs/{id} */
export async function getJob(ci: CiSession, jobId: number): Promise<JobDetail> {
  return ci.json(
    { method: 'GET', path: `/jobs/${idSegment(jobId, 'job id')}` },
    z.looseObject({ job: jobSchema, commit: sideloadedCommitSchema }),
  );
}

export type JobsQuery = { ids: number[] } | { state: string } | { queue: string };

/** 4.9 GET /jobs — exactly one of ids, state, queue; the service returns at most 250 for state/queue. */
export async function listJobs(ci: CiSession, query: JobsQuery): Promise<{ jobs: Job[]; commits: Commit[] }> {
  // Read as optional fields: a caller may pass `{ids: undefined, state}` built from its own options.
  const { ids, state, queue } = query as { ids?: number[]; state?: string; queue?: string };
  const given = [ids, state, queue].filter((value) => value !== undefined);
  if (given.length !== 1) throw badRequest('GET /jobs takes exactly one of ids, state, queue');
  if (ids !== undefined) {
    if (ids.length === 0) throw badRequest('ids must list at least one job id');
    for (const id of ids) idSegment(id, 'job id');
  }
  return ci.json(
    { method: 'GET', path: '/jobs', query: { ids, state, queue } },
    z.looseObject({ jobs: z.array(jobSchema), commits: z.array(commitSchema).default([]) }),
  );
}

/** 4.9 POST /jobs/{id}/cancel — never retried automatically. */
export async function cancelJob(ci: CiSession, jobId: number): Promise<void> {
  await ci.send({ method: 'POST', path: `/jobs/${idSegment(jobId, 'job id')}/cancel`, requiresAuth: true });
}

/** 4.9 POST /jobs/{id}/restart — never retried automatically. */
export async function restartJob(ci: CiSession, jobId: number): Promise<void> {
  await ci.send({ method: 'POST', path: `/jobs/${idSegment(jobId, 'job id')}/restart`, requiresAuth: true });
}
