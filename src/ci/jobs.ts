import { z } from 'zod';
import type { CiSession } from './client.js';
import { badRequest } from './errors.js';
import { idSegment } from './paths.js';
import { type Commit, commitSchema, type Job, jobSchema } from './schemas.js';

export interface JobDetail {
  job: Job;
  commit?: Commit;
}

/** 4.9 GET /jobs/{id} */
export function getJob(ci: CiSession, jobId: number): Promise<JobDetail> {
  return ci.json(
    { method: 'GET', path: `/jobs/${idSegment(jobId, 'job id')}` },
    z.looseObject({ job: jobSchema, commit: commitSchema.optional() }),
  );
}

export type JobsQuery = { ids: number[] } | { state: string } | { queue: string };

/** 4.9 GET /jobs — exactly one of ids, state, queue; the service returns at most 250 for state/queue. */
export function listJobs(ci: CiSession, query: JobsQuery): Promise<{ jobs: Job[]; commits: Commit[] }> {
  const given = (['ids', 'state', 'queue'] as const).filter((key) => key in query);
  if (given.length !== 1) throw badRequest('GET /jobs takes exactly one of ids, state, queue');
  if ('ids' in query && query.ids.length === 0) throw badRequest('ids must list at least one job id');
  return ci.json(
    {
      method: 'GET',
      path: '/jobs',
      query: {
        ids: 'ids' in query ? query.ids : undefined,
        state: 'state' in query ? query.state : undefined,
        queue: 'queue' in query ? query.queue : undefined,
      },
    },
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
