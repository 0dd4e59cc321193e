import {
  accountsOf,
  broadcastsFor,
  findRepos,
  permissionsOf,
  startSync,
  waitForSync,
} from '../../../ops/accounts.js';
import { errorCode } from '../../../ops/describe-error.js';
import { actAs } from '../../acting.js';
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
    const about = { deployment: ctx.deployment, action: 'list your accounts' };
    await actAs(ctx, about, async ({ session, site }) => {
      const accounts = await accountsOf(session, { all: command.all });
      await ctx.reply.privately(accountsMessage({ accounts, all: command.all, site }));
    });
  },

  async repos(ctx, command) {
    const about = { deployment: ctx.deployment, action: 'list repositories' };
    await actAs(ctx, about, async ({ session, login, site }) => {
      const search = {
        term: command.term,
        owner: command.owner,
        member: command.member,
        active: command.active,
      };
      const repos = await findRepos(session, login, search);
      await ctx.reply.privately(reposMessage({ repos, search, login, site, now: ctx.services.clock() }));
    });
  },

  async permissions(ctx) {
    const about = { deployment: ctx.deployment, action: 'list your permissions' };
    await actAs(ctx, about, async ({ session, site }) => {
      await ctx.reply.privately(permissionsMessage(await permissionsOf(session), site));
    });
  },

  async broadcasts(ctx) {
    const about = { deployment: ctx.deployment, action: 'read the announcements' };
    await actAs(ctx, about, async ({ session, site }) => {
      await ctx.reply.privately(broadcastsMessage(await broadcastsFor(session), site));
    });
  },

  /** Starts a sync, then checks a few times (about half a minute) to say when it finished. */
  async sync(ctx) {
    const about = { deployment: ctx.deployment, action: 'start a sync of your account', isChange: true };
    await actAs(ctx, about, async ({ session, site }) => {
      await startSync(session);
      await ctx.reply.privately(syncStartedMessage(site));
      let user: Awaited<ReturnType<typeof waitForSync>>;
      try {
        user = await waitForSync(session);
      } catch (error) {
        // The sync itself was started; only the follow-up failed, which is not worth an error.
        ctx.logger.info({ code: errorCode(error) }, 'could not follow a user sync');
        return;
      }
      await ctx.reply.privately(
        user ? syncFinishedMessage(user, site, ctx.services.clock()) : syncStillRunningMessage(site),
      );
    });
  },
} satisfies Partial<CommandHandlers>;
