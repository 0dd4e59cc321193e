import type { CiSession } from '../ci/client.js';
import { listJobs } from '../ci/jobs.js';
import { getV3Repository } from '../ci/migration.js';
import type { Logger } from '../log.js';
import type { FollowedJob } from './followed-job.js';

/** Jobs asked about in one GET /jobs?ids[]=… */
const CHECK_BATCH = 50;
/** Repository privacy is remembered for this many repositories at most. */
const PRIVACY_CACHE_MAX = 10_000;

/**
 * Asks REST about every followed job, batched per user (their own token reads their jobs), so that
 * a job whose final part never came still ends, and a tail realtime forgot is read over REST.
 */
export async function checkFollowedJobs(follows: Iterable<FollowedJob>, logger: Logger): Promise<void> {
  const groups = new Map<string, FollowedJob[]>();
  for (const followed of follows) {
    const { deployment, teamId, userId } = followed.record;
    const key = `${deployment}\n${teamId}\n${userId}`;
    const group = groups.get(key);
    if (group) group.push(followed);
    else groups.set(key, [followed]);
  }
  await Promise.all(
    [...groups.values()].map(async (group) => {
      for (let start = 0; start < group.length; start += CHECK_BATCH) {
        const batch = group.slice(start, start + CHECK_BATCH);
        const [first] = batch;
        if (!first) return;
        try {
          const { jobs } = await listJobs(first.session, { ids: batch.map((f) => f.record.jobId) });
          const byId = new Map(jobs.map((job) => [job.id, job]));
          for (const followed of batch) {
            const job = byId.get(followed.record.jobId);
            if (job) followed.jobChecked(job);
          }
        } catch (error) {
          logger.warn({ err: error }, 'could not check followed jobs');
        }
      }
    }),
  );
}

/**
 * Whether a repository is private, from the V3 repository (the V2.1 one does not say): its jobs'
 * log channel is then `private-job-<id>`. Remembered per deployment and repository.
 */
export class RepoPrivacy {
  readonly #known = new Map<string, boolean>();

  constructor(private readonly logger: Logger) {}

  /** Undefined when it cannot be told (the caller then listens on both channel names). */
  async isPrivate(session: CiSession, repositoryId: number): Promise<boolean | undefined> {
    const key = `${session.deployment.name}:${repositoryId}`;
    const known = this.#known.get(key);
    if (known !== undefined) return known;
    try {
      const repo = await getV3Repository(session, repositoryId);
      if (repo.private === undefined) return undefined;
      if (this.#known.size >= PRIVACY_CACHE_MAX) this.#known.clear();
      this.#known.set(key, repo.private);
      return repo.private;
    } catch (error) {
      this.logger.debug({ err: error, repositoryId }, 'could not tell whether a repository is private');
      return undefined;
    }
  }
}
