import type { App } from '@slack/bolt';
import { regeneratePublicKey } from '../../ops/keys.js';
import { removeSshKey } from '../../ops/ssh-keys.js';
import type { Services } from '../../services.js';
import { actAs, announceChange } from '../acting.js';
import { ACTIONS } from '../ids.js';
import { keyRegeneratedMessage, sshKeyDeletedMessage } from '../views/keys.js';
import { onAction } from './on-action.js';

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
    (v) => ({ deployment: v.d, action: `regenerate the key of ${v.repo}`, subject: v.repo, isChange: true }),
    async (ctx, v, about) => {
      await actAs(ctx, about, async ({ session, site }) => {
        const key = await regeneratePublicKey(session, v.repo);
        const message = keyRegeneratedMessage(ctx.actor.userId, key, site);
        await announceChange(ctx, v.quiet ?? false, {
          announcement: message,
          confirmation: message,
          replacesOffer: true,
        });
      });
    },
  );

  onAction(
    app,
    services,
    ACTIONS.deleteSshKey,
    (v) => ({
      deployment: v.d,
      action: `delete the SSH key of ${v.repo}`,
      subject: `the SSH key of ${v.repo}`,
      isChange: true,
    }),
    async (ctx, v, about) => {
      await actAs(ctx, about, async ({ session, site }) => {
        const repo = { id: v.repoId, slug: v.repo };
        await removeSshKey(session, repo);
        const message = sshKeyDeletedMessage(ctx.actor.userId, repo, site);
        await announceChange(ctx, v.quiet ?? false, {
          announcement: message,
          confirmation: message,
          replacesOffer: true,
        });
      });
    },
  );
}
