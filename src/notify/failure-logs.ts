import { CiError } from '../ci/errors.js';
import type { Job } from '../ci/schemas.js';
import { openSession } from '../ops/actor.js';
import { NotLinkedError } from '../ops/describe-error.js';
import { tailJobLog } from '../ops/logs.js';
import type { Services } from '../services.js';
import type { SlackMessage } from '../slack/reply.js';
import type { FailedJobLog } from '../slack/views/notification.js';
import type { BuildMessage } from '../store/build-messages.js';
import type { NotifyState } from '../store/notify-state.js';
import { BoundedMap } from './bounded-map.js';
import { FAILED_STATES } from './filters.js';
import { attemptOf, type BuildSnapshot } from './snapshot.js';
import type { ChannelTarget } from './targets.js';

export interface FailureLogsDeps {
  services: Services;
  state: NotifyState;
  render: (snapshot: BuildSnapshot, logs: FailedJobLog[], notShown: Job[]) => SlackMessage;
  /** Lines of each log. */
  logLines: number;
  /** Failed jobs whose logs are read at most; the others are only named. */
  maxLogJobs: number;
  claimTtlMs: number;
}

/** Log tails kept for other channels of the same subscriber (build attempts). */
const REMEMBERED_READS = 20;

/**
 * The reply under a failed or errored build: each failed job's last lines of log (jobs that may
 * not fail first, then allowed failures), read with the token of the person who subscribed the
 * channel. Posted once per build attempt per channel, across replicas: a claim (SET NX) on a key
 * naming the attempt (`attemptOf`), given back when the post fails so that a retry posts it.
 */
export class FailureLogs {
  private readonly reads = new BoundedMap<string, Promise<FailedJobLog[]>>(REMEMBERED_READS);

  constructor(private readonly deps: FailureLogsDeps) {}

  async post(target: ChannelTarget, parent: BuildMessage, snapshot: BuildSnapshot): Promise<void> {
    if (!FAILED_STATES.has(snapshot.build.state)) return;
    const { state, services, claimTtlMs } = this.deps;
    const slot = {
      deployment: snapshot.deployment,
      buildId: snapshot.build.id,
      attempt: attemptOf(snapshot.build),
      teamId: target.teamId,
      channelId: target.channelId,
    };
    if (!(await state.claimLogReply(slot, claimTtlMs))) return;
    const failed = failedJobs(snapshot.jobs);
    const shown = failed.slice(0, this.deps.maxLogJobs);
    try {
      const logs = await this.read(target, snapshot, shown);
      const message = this.deps.render(snapshot, logs, failed.slice(shown.length));
      await services.outbox.post({
        teamId: target.teamId,
        channel: parent.channel,
        ...(target.placement === 'thread' ? { threadTs: parent.ts } : {}),
        ...message,
      });
    } catch (error) {
      // Not posted: give the claim back so that a retry posts it (else it lapses after its TTL).
      await state
        .releaseLogReply(slot)
        .catch((cause: unknown) =>
          services.logger.warn(
            { err: cause, ...slot },
            'notifier: could not give back a failure-reply claim',
          ),
        );
      throw error;
    }
    // Posted: a failure to record that leaves the claim to lapse, never a second reply soon after.
    await state.logReplyPosted(slot);
  }

  private read(target: ChannelTarget, snapshot: BuildSnapshot, jobs: Job[]): Promise<FailedJobLog[]> {
    const { build, deployment } = snapshot;
    const key = [target.teamId, target.readerUserId, deployment, build.id, attemptOf(build)].join(':');
    const known = this.reads.get(key);
    if (known) return known;
    const reading = this.readWithToken(target, snapshot, jobs);
    this.reads.set(key, reading);
    return reading;
  }

  private async readWithToken(
    target: ChannelTarget,
    snapshot: BuildSnapshot,
    jobs: Job[],
  ): Promise<FailedJobLog[]> {
    const { services, logLines } = this.deps;
    const actor = { teamId: target.teamId, userId: target.readerUserId };
    let session: Awaited<ReturnType<typeof openSession>>['session'];
    try {
      ({ session } = await openSession(services, actor, snapshot.deployment));
    } catch (error) {
      return jobs.map((job) => ({ job, problem: problemOf(error) }));
    }
    const logs: FailedJobLog[] = [];
    for (const job of jobs) {
      try {
        logs.push({ job, tail: await tailJobLog(session, job.id, logLines) });
      } catch (error) {
        services.logger.info({ err: error, jobId: job.id }, 'notifier: could not read a failed job’s log');
        logs.push({ job, problem: problemOf(error) });
      }
    }
    return logs;
  }
}

/** Failed and errored jobs, those that may not fail first, each group in matrix order. */
export function failedJobs(jobs: Job[]): Job[] {
  const failed = jobs.filter((job) => FAILED_STATES.has(job.state));
  return [...failed.filter((job) => !job.allow_failure), ...failed.filter((job) => job.allow_failure)];
}

/** Why a log could not be read, for the channel (never the token or the service's raw answer). */
function problemOf(error: unknown): string {
  if (error instanceof NotLinkedError) {
    return 'The log could not be read: whoever subscribed this channel is no longer linked to the CI service.';
  }
  if (error instanceof CiError) {
    switch (error.code) {
      case 'unauthenticated':
        return 'The log could not be read: the CI service no longer accepts the subscriber’s token.';
      case 'not_found':
        return 'The log could not be found.';
      case 'insufficient_access':
        return 'The subscriber’s account may not read this log.';
      default:
        return 'The log could not be read: the CI service did not answer.';
    }
  }
  return 'The log could not be read.';
}
