import type { CommandHandlers } from '../context.js';
import { accountViewHandlers } from './account-views.js';
import { accountHandlers } from './accounts.js';
import { buildHandlers } from './builds.js';
import { keyHandlers } from './keys.js';
import { lintHandlers } from './lint.js';
import { migrationHandlers } from './migration.js';
import { repoSettingsHandlers } from './repo-settings.js';
import { repoHandlers } from './repos.js';
import { subscriptionHandlers } from './subscriptions.js';

/** One handler per `/ci` command; the type makes a command without a handler a compile error. */
export const COMMAND_HANDLERS: CommandHandlers = {
  ...accountHandlers,
  ...accountViewHandlers,
  ...buildHandlers,
  ...repoHandlers,
  ...repoSettingsHandlers,
  ...keyHandlers,
  ...lintHandlers,
  ...subscriptionHandlers,
  ...migrationHandlers,
};
