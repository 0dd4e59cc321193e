import type { App } from '@slack/bolt';
import { cancelMigration, confirmMigration } from '../../ops/migrate.js';
import { moveSubscription } from '../../ops/migration-subscriptions.js';
import type { Services } from '../../services.js';
import { actAs } from '../acting.js';
import { onDeployment } from '../commands/on-deployment.js';
import { runCommandText } from '../commands/register.js';
import { siteOf } from '../deployments.js';
import { ACTIONS } from '../ids.js';
import { MIGRATION_CANCELED, migrationStartedMessage } from '../views/migration.js';
import { subscriptionMovedMessage } from '../views/migration-offers.js';
import { onAction } from './on-action.js';

/**
 * Buttons of migration: Confirm and Cancel under `/ci migrate`'s confirmation, "Move to …" under a
 * channel's question about a subscription, and "Run on …" under a refusal of the old deployment.
 * Each acts as whoever clicks, with their own linked account.
 */
export function registerMigrationActions(app: App, services: Services): void {
  onAction(
    app,
    services,
    ACTIONS.confirmMigration,
    (v) => ({ deployment: v.d, action: 'start the migration' }),
    async (ctx, v) => {
      const batch = await confirmMigration(services, ctx.actor, { draftId: v.id, to: v.d });
      void services.migrations.run(batch.id);
      await ctx.reply.privately(migrationStartedMessage(batch.repos.length, siteOf(services, batch.to)), {
        replaceOriginal: true,
      });
    },
  );

  onAction(
    app,
    services,
    ACTIONS.cancelMigration,
    () => ({ deployment: services.config.ci.defaultDeployment, action: 'cancel the migration' }),
    async (ctx, v) => {
      await cancelMigration(services, v.id);
      await ctx.reply.privately(MIGRATION_CANCELED, { replaceOriginal: true });
    },
  );

  onAction(
    app,
    services,
    ACTIONS.moveSubscription,
    (v) => ({
      deployment: v.d,
      action: `move this channel's subscription to ${v.what} to ${services.label(v.d)}`,
      subject: v.what,
      isChange: true,
    }),
    (ctx, v, about) =>
      actAs(ctx, about, async ({ site }) => {
        const moved = await moveSubscription(services, ctx.actor, v.sub);
        const message = subscriptionMovedMessage({
          ...moved,
          userId: ctx.actor.userId,
          site,
          fromLabel: services.label(moved.from.deployment),
        });
        // The question becomes the answer, so nobody clicks it again.
        if (ctx.message) {
          const { channel, ts } = ctx.message;
          await services.outbox.update({ teamId: ctx.actor.teamId, channel, ts, ...message, final: true });
        } else {
          await ctx.reply.publicly(message);
        }
      }),
  );

  onAction(
    app,
    services,
    ACTIONS.runOnDeployment,
    (v) => ({ deployment: v.d, action: `run the command on ${services.label(v.d)}` }),
    (ctx, v) => runCommandText(ctx, onDeployment(v.text, v.d)),
  );
}
