import { migrationRoute, planMigration } from '../../../ops/migrate.js';
import { siteOf } from '../../deployments.js';
import { guarded } from '../../interaction.js';
import { migrationConfirmMessage } from '../../views/migration.js';
import type { CommandHandlers } from '../context.js';

/** migrate: a private confirmation first; its Confirm button starts the batch (actions/migration.ts). */
export const migrationHandlers = {
  async migrate(ctx, command) {
    const { services } = ctx;
    const route = migrationRoute(services);
    // Listing `owner/*` is the only CI call here, with the user's token on the old deployment.
    const about = { deployment: route.from, action: 'list the repositories to migrate' };
    await guarded(ctx, about, async () => {
      const plan = await planMigration(services, ctx.actor, {
        channelId: ctx.channelId,
        targets: command.targets,
      });
      await ctx.reply.privately(
        migrationConfirmMessage({
          draftId: plan.draftId,
          from: siteOf(services, route.from),
          to: siteOf(services, route.to),
          repos: plan.repos,
          alreadyMoved: plan.alreadyMoved,
          left: plan.left,
        }),
      );
    });
  },
} satisfies Partial<CommandHandlers>;
