import type { Deployment } from '../../../config.js';
import { UserFacingError } from '../../../ops/describe-error.js';
import { setNotifyMe } from '../../../ops/notify-me.js';
import {
  channelSubscriptions,
  describeTarget,
  subscribeChannel,
  unsubscribeChannel,
} from '../../../ops/subscriptions.js';
import { announceChange } from '../../acting.js';
import { checkChannelAccess } from '../../channel-access.js';
import { describeDeployment } from '../../deployments.js';
import { guarded } from '../../interaction.js';
import {
  cannotPostMessage,
  notifyMeMessage,
  subscribedMessage,
  subscriptionsMessage,
  unsubscribedMessage,
} from '../../views/subscriptions.js';
import type { CommandContext, CommandHandlers } from '../context.js';

/** subscribe, unsubscribe, subscriptions, notify me on|off */
export const subscriptionHandlers = {
  async subscribe(ctx, command) {
    const channelId = channelOf(ctx);
    // Notifications are posted with chat.postMessage later, which needs the bot in the channel.
    const access = await checkChannelAccess(ctx.client, channelId);
    if (!access.ok) {
      await ctx.reply.privately(cannotPostMessage(access, await botUserId(ctx)));
      return;
    }
    const what = describeTarget(command.target);
    const failure = {
      deployment: ctx.deployment,
      action: `subscribe this channel to ${what}`,
      subject: what,
    };
    await guarded(ctx, failure, async () => {
      const result = await subscribeChannel(ctx.services, ctx.actor, ctx.deployment, {
        channelId,
        target: command.target,
        filters: command.filters,
      });
      const message = {
        subscription: result.subscription,
        previous: result.previous,
        userId: ctx.actor.userId,
        deployment: describeDeployment(ctx.services)(ctx.deployment),
      };
      await announceChange(ctx, command.quiet, {
        announcement: subscribedMessage(message, 'channel'),
        confirmation: subscribedMessage(message, 'subscriber'),
      });
    });
  },

  async unsubscribe(ctx, command) {
    const named: Deployment | undefined =
      command.deployment ?? (command.usedChannelRepo ? ctx.deployment : undefined);
    const removed = await unsubscribeChannel(ctx.services, ctx.actor, {
      channelId: channelOf(ctx),
      target: command.target,
      deployment: named,
    });
    const info = describeDeployment(ctx.services)(removed.deployment);
    await announceChange(ctx, command.quiet, {
      announcement: unsubscribedMessage(removed, info, ctx.actor.userId),
      confirmation: unsubscribedMessage(removed, info, undefined),
    });
  },

  async subscriptions(ctx) {
    const subs = await channelSubscriptions(ctx.services, ctx.actor, channelOf(ctx));
    await ctx.reply.privately(subscriptionsMessage(subs, describeDeployment(ctx.services)));
  },

  async notify(ctx, command) {
    const result = await setNotifyMe(ctx.services, ctx.actor, ctx.deployment, command.state === 'on');
    await ctx.reply.privately(notifyMeMessage(result, describeDeployment(ctx.services)));
  },
} satisfies Partial<CommandHandlers>;

function channelOf(ctx: CommandContext): string {
  if (!ctx.channelId) throw new UserFacingError('Run this command in the channel it is about.');
  return ctx.channelId;
}

/** The bot's own user id, to show `/invite @bot`; undefined when Slack does not say. */
async function botUserId(ctx: CommandContext): Promise<string | undefined> {
  try {
    return (await ctx.client.auth.test()).user_id;
  } catch (error) {
    ctx.logger.warn({ err: error }, 'auth.test failed');
    return undefined;
  }
}
