import type { CiSession } from '../ci/client.js';
import { listJobs } from '../ci/jobs.js';
import type { Commit, Job } from '../ci/schemas.js';

/** Jobs in one state or on one queue, across the repositories the user can see. */

/** The service answers at most this many jobs to a state or queue filter. */
export const SERVICE_JOB_LIMIT = 250;

export type JobFilter = { state: string } | { queue: string };

export interface JobListEntry {
  job: Job;
  commit: Commit | undefined;
}

export interface JobList {
  filter: JobFilter;
  entries: JobListEntry[];
  /** True when the service's limit was reached, so there may be more jobs than it listed. */
  atServiceLimit: boolean;
}

export async function findJobs(ci: CiSession, filter: JobFilter): Promise<JobList> {
  const { jobs, commits } = await listJobs(ci, filter);
  const byId = new Map(commits.map((c) => [c.id, c]));
  return {
    filter,
    entries: jobs.map((job) => ({
      job,
      commit: job.commit_id == null ? undefined : byId.get(job.commit_id),
    })),
    atServiceLimit: jobs.length >= SERVICE_JOB_LIMIT,
  };
}
