import { getCurrentUser } from '../../../ci/auth.js';
import { DEPLOYMENTS, type Deployment } from '../../../config.js';
import { openSession } from '../../../ops/actor.js';
import { siteOf } from '../../deployments.js';
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
    await ctx.client.views.open({
      trigger_id: ctx.triggerId ?? '',
      view: loginModal({ site: siteOf(ctx.services, ctx.deployment), channelId: ctx.channelId }),
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
    const configured = (deployment: Deployment) => services.config.ci.deployments[deployment] !== undefined;
    const entries: WhoamiEntry[] = linked
      .filter((account) => configured(account.deployment))
      .map((account) => ({ account, site: siteOf(services, account.deployment) }));
    // Check the token of the deployment asked about, so a revoked token shows up here.
    const asked = entries.find((e) => e.account.deployment === (command.deployment ?? ctx.deployment));
    if (asked) {
      const { session } = await openSession(services, actor, asked.account.deployment);
      asked.user = await getCurrentUser(session);
    }
    const unlinked = DEPLOYMENTS.filter((d) => configured(d) && !linked.some((a) => a.deployment === d)).map(
      (deployment) => siteOf(services, deployment),
    );
    await ctx.reply.privately(whoamiMessage(entries, unlinked));
  },
} satisfies Partial<CommandHandlers>;
