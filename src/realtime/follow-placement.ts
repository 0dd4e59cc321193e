import type { Job } from '../ci/schemas.js';
import type { Services } from '../services.js';
import { type FollowedJobView, followParentMessage, liveTailMessage } from '../slack/views/follow.js';
import type { FollowRecord } from '../store/follows.js';

/** Where a followed job's tail sits: a reply (`messageTs`) in the thread of `threadTs`. */
export interface TailPlacement {
  channel: string;
  threadTs: string;
  messageTs: string;
}

/**
 * Posts the tail message of a follow: in the thread of `threadTs` when given, else of the build's
 * own message in that channel (posted by notifications), else of a new line in the channel that
 * says who follows which job, with no lines yet and the job's state. Returns where it went.
 */
export async function postTail(
  services: Pick<Services, 'outbox' | 'buildMessages'>,
  record: FollowRecord,
  view: FollowedJobView,
  job: Job,
  threadTs?: string,
): Promise<TailPlacement> {
  const { teamId, channelId: channel, deployment } = record;
  let parent = threadTs;
  parent ??= (
    await services.buildMessages.get({ deployment, buildId: job.build_id, teamId, channelId: channel })
  )?.ts;
  parent ??= (await services.outbox.post({ teamId, channel, ...followParentMessage(view, record.userId) }))
    .ts;
  const message = liveTailMessage(view, [], job.state);
  const posted = await services.outbox.post({ teamId, channel, threadTs: parent, ...message });
  return { channel, threadTs: parent, messageTs: posted.ts };
}
