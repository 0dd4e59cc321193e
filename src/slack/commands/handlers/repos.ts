import { channelRepo, clearChannelRepo, useChannelRepo } from '../../../ops/channel-repo.js';
import { UserFacingError } from '../../../ops/describe-error.js';
import { latestBranchBuilds, recentRequests, setRepoActive, showRepo } from '../../../ops/repos.js';
import { describeRepoRef } from '../../../ops/resolve.js';
import { actAs, announceChange } from '../../acting.js';
import {
  activationAnnouncement,
  activationConfirmation,
  branchesMessage,
  channelRepoAnnouncement,
  channelRepoCleared,
  channelRepoConfirmation,
  channelRepoShown,
  repoMessage,
  requestsMessage,
} from '../../views/repos.js';
import type { CommandContext, CommandHandlers } from '../context.js';
import type { ParsedCommandOf } from '../index.js';

/** repo, enable, disable, branches, requests, use */
export const repoHandlers = {
  async repo(ctx, command) {
    const subject = describeRepoRef(command.repo);
    const about = { deployment: ctx.deployment, action: `look up ${subject}`, subject };
    await actAs(ctx, about, async ({ session, site }) => {
      const repo = await showRepo(session, command.repo);
      await ctx.reply.privately(repoMessage(repo, site, ctx.services.clock()));
    });
  },

  enable: (ctx, command) => setActive(ctx, command, true),
  disable: (ctx, command) => setActive(ctx, command, false),

  async branches(ctx, command) {
    const subject = describeRepoRef(command.repo);
    const about = { deployment: ctx.deployment, action: `list the branches of ${subject}`, subject };
    await actAs(ctx, about, async ({ session, site }) => {
      const { repo, branches } = await latestBranchBuilds(session, command.repo);
      await ctx.reply.privately(branchesMessage(repo, branches, site, ctx.services.clock()));
    });
  },

  async requests(ctx, command) {
    const subject = describeRepoRef(command.repo);
    const about = { deployment: ctx.deployment, action: `list the requests of ${subject}`, subject };
    await actAs(ctx, about, async ({ session, site }) => {
      const { repo, requests } = await recentRequests(session, command.repo, command.limit);
      await ctx.reply.privately(requestsMessage(repo, requests, site, ctx.services.clock()));
    });
  },

  async use(ctx, command) {
    const { services, actor, channelId } = ctx;
    if (!channelId) throw new UserFacingError('`/ci use` sets the repository of a channel; run it in one.');
    const place = { teamId: actor.teamId, channelId };
    if (command.clear) {
      const previous = await clearChannelRepo(services, place);
      if (!previous) {
        await ctx.reply.privately(channelRepoCleared(undefined, undefined));
        return;
      }
      await announceChange(ctx, command.quiet, {
        announcement: channelRepoCleared(actor.userId, previous),
        confirmation: channelRepoCleared(undefined, previous),
      });
      return;
    }
    const ref = command.repo;
    if (!ref) {
      const current = await channelRepo(services, place);
      const label = current ? services.label(current.deployment) : '';
      await ctx.reply.privately(channelRepoShown(current, label, services.clock()));
      return;
    }
    const subject = describeRepoRef(ref);
    const about = {
      deployment: ctx.deployment,
      action: `use ${subject} in this channel`,
      subject,
      isChange: true,
    };
    await actAs(ctx, about, async ({ session, site }) => {
      const { repo } = await useChannelRepo(services, session, place, actor.userId, ref);
      await announceChange(ctx, command.quiet, {
        announcement: channelRepoAnnouncement(actor.userId, repo, site),
        confirmation: channelRepoConfirmation(repo, site),
      });
    });
  },
} satisfies Partial<CommandHandlers>;

async function setActive(
  ctx: CommandContext,
  command: ParsedCommandOf<'enable'> | ParsedCommandOf<'disable'>,
  active: boolean,
): Promise<void> {
  const subject = describeRepoRef(command.repo);
  const action = `${active ? 'enable' : 'disable'} ${subject}`;
  await actAs(
    ctx,
    { deployment: ctx.deployment, action, subject, isChange: true },
    async ({ session, site }) => {
      const repo = await setRepoActive(session, command.repo, active);
      await announceChange(ctx, command.quiet, {
        announcement: activationAnnouncement(ctx.actor.userId, repo, active, site),
        confirmation: activationConfirmation(repo, active, site),
      });
    },
  );
}
