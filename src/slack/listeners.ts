import type { App } from '@slack/bolt';
import type { Services } from '../services.js';
import { registerAccountActions } from './actions/account.js';
import { registerRepoActions } from './actions/repos.js';
import { registerSlashCommand } from './commands/register.js';
import { registerHome } from './home/register.js';
import { registerEnvSetSubmission } from './submissions/env-set.js';
import { registerLoginSubmission } from './submissions/login.js';
import { registerSettingsSubmission } from './submissions/settings.js';

/** Every Slack surface the app listens on, one register function each. */
export function registerListeners(app: App, services: Services): void {
  registerSlashCommand(app, services);
  registerAccountActions(app, services);
  registerLoginSubmission(app, services);
  registerHome(app, services);
  registerRepoActions(app, services);
  registerEnvSetSubmission(app, services);
  registerSettingsSubmission(app, services);
}
