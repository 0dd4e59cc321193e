import type { App } from '@slack/bolt';
import type { Services } from '../../services.js';
import { siteOf } from '../deployments.js';
import { publishHome } from '../home/publish.js';
import { ACTIONS } from '../ids.js';
import { loginModal } from '../views/account.js';
import { onAction } from './on-action.js';

/** Link / Unlink buttons (error messages, App Home) and the Home tab's Refresh. */
export function registerAccountActions(app: App, services: Services): void {
  onAction(
    app,
    services,
    ACTIONS.linkAccount,
    (v) => ({ deployment: v.d, action: 'link your account' }),
    async (ctx, v) => {
      await ctx.client.views.open({
        trigger_id: ctx.triggerId ?? '',
        view: loginModal({ site: siteOf(services, v.d), channelId: ctx.channelId }),
      });
    },
  );

  onAction(
    app,
    services,
    ACTIONS.unlinkAccount,
    (v) => ({ deployment: v.d, action: 'unlink your account' }),
    async (ctx, v) => {
      await services.accounts.unlink(ctx.actor.teamId, ctx.actor.userId, v.d);
      await publishHome(services, ctx.client, ctx.actor);
    },
  );

  onAction(
    app,
    services,
    ACTIONS.refreshHome,
    () => ({ deployment: services.config.ci.defaultDeployment, action: 'refresh your Home tab' }),
    async (ctx) => publishHome(services, ctx.client, ctx.actor),
  );
}
