import type { CommandHandler, CommandHandlers } from '../context.js';
import type { CommandName } from '../index.js';
import { accountHandlers } from './accounts.js';
import { repoSettingsHandlers } from './repo-settings.js';
import { repoHandlers } from './repos.js';

/**
 * Commands whose handlers are still being built answer that plainly. This list shrinks to nothing
 * as the command groups land; it is not a feature.
 */
function notYetAvailable(name: CommandName): CommandHandler<CommandName> {
  return async (ctx) => {
    await ctx.reply.privately({ text: `\`/ci ${name}\` is not available yet.` });
  };
}

const PENDING = [
  'accounts',
  'repos',
  'permissions',
  'broadcasts',
  'sync',
  'status',
  'builds',
  'build',
  'jobs',
  'restart',
  'cancel',
  'logs',
  'pubkey',
  'encrypt',
  'sshkey',
  'lint',
  'subscribe',
  'unsubscribe',
  'subscriptions',
  'notify',
  'migrate',
] as const satisfies readonly CommandName[];

const pending = Object.fromEntries(PENDING.map((name) => [name, notYetAvailable(name)])) as Pick<
  CommandHandlers,
  (typeof PENDING)[number]
>;

export const COMMAND_HANDLERS: CommandHandlers = {
  ...pending,
  ...accountHandlers,
  ...repoHandlers,
  ...repoSettingsHandlers,
};
