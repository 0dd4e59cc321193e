import {
  accountsOf,
  broadcastsFor,
  findRepos,
  permissionsOf,
  startSync,
  waitForSync,
} from '../../../ops/accounts.js';
import { actAs } from '../../act-as.js';
import {
  accountsMessage,
  broadcastsMessage,
  permissionsMessage,
  reposMessage,
  syncFinishedMessage,
  syncStartedMessage,
  syncStillRunningMessage,
} from '../../views/accounts.js';
import type { CommandHandlers } from '../context.js';

/** accounts, repos, permissions, broadcasts, sync: all private answers about the user's own account. */
export const accountViewHandlers = {
  async accounts(ctx, command) {
    await actAs(ctx, ctx.deployment, { action: 'list your accounts' }, async ({ session, label, webUrl }) => {
      const accounts = await accountsOf(session, { all: command.all });
      await ctx.reply.privately(accountsMessage({ accounts, all: command.all, label, webUrl }));
    });
  },

  async repos(ctx, command) {
    await actAs(ctx, ctx.deployment, { action: 'list repositories' }, async ({ session, login, webUrl }) => {
      const search = {
        term: command.term,
        owner: command.owner,
        member: command.member,
        active: command.active,
      };
      const repos = await findRepos(session, login, search);
      await ctx.reply.privately(reposMessage({ repos, search, login, webUrl, now: ctx.services.clock() }));
    });
  },

  async permissions(ctx) {
    await actAs(
      ctx,
      ctx.deployment,
      { action: 'list your permissions' },
      async ({ session, label, webUrl }) => {
        await ctx.reply.privately(permissionsMessage(await permissionsOf(session), label, webUrl));
      },
    );
  },

  async broadcasts(ctx) {
    await actAs(ctx, ctx.deployment, { action: 'read the announcements' }, async ({ session, label }) => {
      await ctx.reply.privately(broadcastsMessage(await broadcastsFor(session), label));
    });
  },

  /** Starts a sync, then checks a few times (about half a minute) to say when it finished. */
  async sync(ctx) {
    await actAs(
      ctx,
      ctx.deployment,
      { action: 'start a sync of your account', isChange: true },
      async ({ session, label }) => {
        await startSync(session);
        await ctx.reply.privately(syncStartedMessage(label));
        let user: Awaited<ReturnType<typeof waitForSync>>;
        try {
          user = await waitForSync(session);
        } catch (error) {
          // The sync itself was started; only the follow-up failed, which is not worth an error.
          ctx.logger.info({ code: (error as { code?: unknown }).code }, 'could not follow a user sync');
          return;
        }
        await ctx.reply.privately(
          user ? syncFinishedMessage(user, label, ctx.services.clock()) : syncStillRunningMessage(label),
        );
      },
    );
  },
} satisfies Partial<CommandHandlers>;
