import type { App } from '@slack/bolt';
import type { Services } from '../../services.js';
import { publishHome } from './publish.js';

export function registerHome(app: App, services: Services): void {
  app.event('app_home_opened', async ({ event, body, client }) => {
    if (event.tab !== 'home') return;
    services.metrics.countSlackRequest('event', 'app_home_opened');
    await publishHome(services, client, { teamId: body.team_id, userId: event.user });
  });
}
