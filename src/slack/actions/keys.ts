import type { App } from '@slack/bolt';
import { regeneratePublicKey } from '../../ops/keys.js';
import { removeSshKey } from '../../ops/ssh-keys.js';
import type { Services } from '../../services.js';
import { actAs } from '../act-as.js';
import { ACTIONS } from '../ids.js';
import type { SlackMessage } from '../reply.js';
import { keyRegeneratedMessage, sshKeyDeletedMessage } from '../views/keys.js';
import { type ActionContext, onAction } from './on-action.js';

/**
 * "Regenerate key" and "Delete SSH key": both behind a confirm dialog, both act as the person who
 * clicks (with their own linked account), both announce the change in the channel unless the
 * command that offered the button was --quiet (then the offer itself turns into the confirmation).
 */
export function registerKeyActions(app: App, services: Services): void {
  onAction(
    app,
    services,
    ACTIONS.regenerateKey,
    (v) => ({ deployment: v.d, action: `regenerate the key of ${v.repo}`, isChange: true }),
    async (ctx, v) => {
      const about = { action: `regenerate the key of ${v.repo}`, subject: v.repo, isChange: true };
      await actAs(ctx, v.d, about, async ({ session, webUrl }) => {
        const key = await regeneratePublicKey(session, v.repo);
        await tell(ctx, keyRegeneratedMessage(ctx.actor.userId, key, webUrl), v.quiet);
      });
    },
  );

  onAction(
    app,
    services,
    ACTIONS.deleteSshKey,
    (v) => ({ deployment: v.d, action: `delete the SSH key of ${v.repo}`, isChange: true }),
    async (ctx, v) => {
      const about = {
        action: `delete the SSH key of ${v.repo}`,
        subject: `the SSH key of ${v.repo}`,
        isChange: true,
      };
      await actAs(ctx, v.d, about, async ({ session, webUrl }) => {
        const repo = { id: v.repoId, slug: v.repo };
        await removeSshKey(session, repo);
        await tell(ctx, sshKeyDeletedMessage(ctx.actor.userId, repo, webUrl), v.quiet);
      });
    },
  );
}

/** Announced in the channel; with --quiet, only the clicker sees it, in place of the button. */
async function tell(ctx: ActionContext, message: SlackMessage, quiet: boolean | undefined): Promise<void> {
  if (quiet) await ctx.reply.privately(message, { replaceOriginal: true });
  else await ctx.reply.publicly(message);
}
