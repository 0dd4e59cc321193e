import type { CommandHandler, CommandHandlers } from '../context.js';
import type { CommandName } from '../index.js';
import { accountViewHandlers } from './account-views.js';
import { accountHandlers } from './accounts.js';
import { buildHandlers } from './builds.js';
import { keyHandlers } from './keys.js';
import { lintHandlers } from './lint.js';
import { migrationHandlers } from './migration.js';
import { repoSettingsHandlers } from './repo-settings.js';
import { repoHandlers } from './repos.js';
import { subscriptionHandlers } from './subscriptions.js';

/**
 * Commands whose handlers are still being built answer that plainly. This list shrinks to nothing
 * as the command groups land; it is not a feature.
 */
function notYetAvailable(name: CommandName): CommandHandler<CommandName> {
  return async (ctx) => {
    await ctx.reply.privately({ text: `\`/ci ${name}\` is not available yet.` });
  };
}

const PENDING = [] as const satisfies readonly CommandName[];

const pending = Object.fromEntries(PENDING.map((name) => [name, notYetAvailable(name)])) as Pick<
  CommandHandlers,
  (typeof PENDING)[number]
>;

export const COMMAND_HANDLERS: CommandHandlers = {
  ...pending,
  ...accountHandlers,
  ...accountViewHandlers,
  ...keyHandlers,
  ...lintHandlers,
  ...subscriptionHandlers,
  ...migrationHandlers,
  ...buildHandlers,
  ...repoHandlers,
  ...repoSettingsHandlers,
};
