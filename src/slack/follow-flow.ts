import type { Deployment } from '../config.js';
import { openSession } from '../ops/actor.js';
import { UserFacingError } from '../ops/describe-error.js';
import { DEFAULT_LOG_LINES } from '../ops/logs.js';
import type { JobRef } from '../ops/references.js';
import { describeJobRef, resolveJob } from '../ops/resolve.js';
import type { FollowOutcome } from '../realtime/log-follower.js';
import { showLog } from './build-flows.js';
import { guarded, type Interaction } from './interaction.js';
import { CHANNEL_ERRORS } from './outbox/errors.js';
import { SlackOutboxError } from './outbox/index.js';
import {
  alreadyFollowedReply,
  cannotPostReply,
  followCapacityReply,
  followNeedsChannelReply,
  followStartedReply,
  followStoppingReply,
  jobFinishedReply,
  notFollowedReply,
} from './views/follow.js';

/**
 * `/ci logs <job> --follow` and the Follow buttons: as the person who asked (their own linked
 * token reads the job first, so a job they cannot see is refused before anything is posted), the
 * job's live tail goes in a thread of the channel; they hear privately where it is.
 */
export async function followLog(ix: Interaction, deployment: Deployment, ref: JobRef): Promise<void> {
  const channelId = ix.channelId;
  if (!channelId) {
    await ix.reply.privately(followNeedsChannelReply());
    return;
  }
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  const subject = describeJobRef(ref);
  const context = { deployment, action: `follow the log of ${subject}`, subject, login: account.ciLogin };
  await guarded(ix, context, async () => {
    const jobId = ref.kind === 'number' ? (await resolveJob(session, ref)).job.id : ref.id;
    let outcome: FollowOutcome;
    try {
      outcome = await ix.services.follower.follow({ deployment, jobId, actor: ix.actor, channelId });
    } catch (error) {
      if (error instanceof SlackOutboxError && CHANNEL_ERRORS.has(error.code)) {
        throw new UserFacingError(cannotPostReply().text);
      }
      throw error;
    }
    await answer(ix, deployment, outcome);
  });
}

/**
 * `/ci logs <job> --stop`: ends the live log of the job in this channel, whoever started it; the
 * thread's last edit names who stopped it. A job given by number is looked up with the asker's token.
 */
export async function unfollowLog(ix: Interaction, deployment: Deployment, ref: JobRef): Promise<void> {
  const channelId = ix.channelId;
  const subject = describeJobRef(ref);
  if (!channelId) {
    await ix.reply.privately(notFollowedReply(subject));
    return;
  }
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  const context = { deployment, action: `stop following ${subject}`, subject, login: account.ciLogin };
  await guarded(ix, context, async () => {
    const jobId = ref.kind === 'number' ? (await resolveJob(session, ref)).job.id : ref.id;
    const outcome = await ix.services.follower.unfollow({ deployment, jobId, actor: ix.actor, channelId });
    await ix.reply.privately(
      outcome.kind === 'stopping' ? followStoppingReply(outcome.view) : notFollowedReply(subject),
    );
  });
}

async function answer(ix: Interaction, deployment: Deployment, outcome: FollowOutcome): Promise<void> {
  switch (outcome.kind) {
    case 'started':
      await ix.reply.privately(followStartedReply(outcome.view, await permalink(ix, outcome.placement)));
      return;
    case 'already':
      await ix.reply.privately(alreadyFollowedReply(outcome.view, await permalink(ix, outcome.placement)));
      return;
    case 'at_capacity':
      await ix.reply.privately(followCapacityReply(outcome.max));
      return;
    case 'finished':
      await ix.reply.privately(jobFinishedReply(outcome.view, outcome.state));
      await showLog(ix, deployment, { kind: 'id', id: outcome.view.job.id }, DEFAULT_LOG_LINES);
      return;
  }
}

/** A link to the tail message in its thread; none when Slack will not give one. */
async function permalink(
  ix: Interaction,
  placement: { channel: string; messageTs: string } | undefined,
): Promise<string | undefined> {
  if (!placement) return undefined;
  try {
    const answer = await ix.client.chat.getPermalink({
      channel: placement.channel,
      message_ts: placement.messageTs,
    });
    return answer.permalink;
  } catch (error) {
    ix.logger.debug({ err: error }, 'no permalink for a followed log');
    return undefined;
  }
}
