import type { App } from '@slack/bolt';
import type { Services } from '../services.js';
import { registerAccountActions } from './actions/account.js';
import { registerBuildActions } from './actions/builds.js';
import { registerFollowActions } from './actions/follow.js';
import { registerKeyActions } from './actions/keys.js';
import { registerMigrationActions } from './actions/migration.js';
import { registerRepoActions } from './actions/repos.js';
import { registerSlashCommand } from './commands/register.js';
import { registerHome } from './home/register.js';
import { registerLintShortcut } from './shortcuts/lint-message.js';
import { registerEncryptSubmission } from './submissions/encrypt.js';
import { registerEnvSetSubmission } from './submissions/env-set.js';
import { registerLintSubmission } from './submissions/lint.js';
import { registerLoginSubmission } from './submissions/login.js';
import { registerSettingsSubmission } from './submissions/settings.js';
import { registerSshKeySetSubmission } from './submissions/sshkey-set.js';
import { registerUnfurls } from './unfurl/register.js';

/** Every Slack surface the app listens on, one register function each. */
export function registerListeners(app: App, services: Services): void {
  // The slash command
  registerSlashCommand(app, services);
  // Buttons
  registerAccountActions(app, services);
  registerBuildActions(app, services);
  registerFollowActions(app, services);
  registerRepoActions(app, services);
  registerKeyActions(app, services);
  registerMigrationActions(app, services);
  // Modal submissions and the message shortcut
  registerLoginSubmission(app, services);
  registerEnvSetSubmission(app, services);
  registerSettingsSubmission(app, services);
  registerEncryptSubmission(app, services);
  registerSshKeySetSubmission(app, services);
  registerLintSubmission(app, services);
  registerLintShortcut(app, services);
  // Events
  registerHome(app, services);
  registerUnfurls(app, services);
}
