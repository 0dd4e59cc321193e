import type { App } from '@slack/bolt';
import type { Services } from '../services.js';
import { registerAccountActions } from './actions/account.js';
import { registerBuildActions } from './actions/builds.js';
import { registerSlashCommand } from './commands/register.js';
import { registerHome } from './home/register.js';
import { registerLoginSubmission } from './submissions/login.js';
import { registerUnfurls } from './unfurl/register.js';

/** Every Slack surface the app listens on, one register function each. */
export function registerListeners(app: App, services: Services): void {
  registerSlashCommand(app, services);
  registerAccountActions(app, services);
  registerLoginSubmission(app, services);
  registerHome(app, services);
  registerBuildActions(app, services);
  registerUnfurls(app, services);
}
