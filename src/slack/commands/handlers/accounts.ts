import { getCurrentUser } from '../../../ci/auth.js';
import { DEPLOYMENTS } from '../../../config.js';
import { openSession } from '../../../ops/actor.js';
import {
  commandHelpMessage,
  helpMessage,
  loginModal,
  type WhoamiEntry,
  whoamiMessage,
} from '../../views/account.js';
import type { CommandHandlers } from '../context.js';
import { commandHelp } from '../index.js';

/** help, login, logout, whoami */
export const accountHandlers = {
  async help(ctx, command) {
    await ctx.reply.privately(command.topic ? commandHelpMessage(commandHelp(command.topic)) : helpMessage());
  },

  async login(ctx) {
    const settings = ctx.services.ci.deployment(ctx.deployment);
    await ctx.client.views.open({
      trigger_id: ctx.triggerId ?? '',
      view: loginModal({
        deployment: ctx.deployment,
        label: ctx.services.label(ctx.deployment),
        webUrl: settings.webUrl,
        channelId: ctx.channelId,
      }),
    });
  },

  async logout(ctx) {
    const label = ctx.services.label(ctx.deployment);
    const removed = await ctx.services.accounts.unlink(ctx.actor.teamId, ctx.actor.userId, ctx.deployment);
    await ctx.reply.privately({
      text: removed
        ? `Unlinked your ${label} account; its token is deleted from this app. (To revoke the token itself, regenerate it on ${label}.)`
        : `You had no ${label} account linked.`,
    });
  },

  async whoami(ctx, command) {
    const { services, actor } = ctx;
    const linked = await services.accounts.list(actor.teamId, actor.userId);
    const entries: WhoamiEntry[] = [];
    for (const account of linked) {
      const settings = services.config.ci.deployments[account.deployment];
      if (!settings) continue;
      entries.push({ account, label: services.label(account.deployment), webUrl: settings.webUrl });
    }
    // Check the token of the deployment asked about, so a revoked token shows up here.
    const asked = entries.find((e) => e.account.deployment === (command.deployment ?? ctx.deployment));
    if (asked) {
      const { session } = await openSession(services, actor, asked.account.deployment);
      asked.user = await getCurrentUser(session);
    }
    const unlinked = DEPLOYMENTS.filter(
      (d) => services.config.ci.deployments[d] && !linked.some((a) => a.deployment === d),
    ).map((deployment) => ({ deployment, label: services.label(deployment) }));
    await ctx.reply.privately(whoamiMessage(entries, unlinked));
  },
} satisfies Partial<CommandHandlers>;
