import type { CommandGroup, CommandSpec } from './spec.js';
import { ACCOUNT_COMMANDS } from './table-account.js';
import { BUILD_COMMANDS } from './table-builds.js';
import { CHANNEL_COMMANDS } from './table-channel.js';
import { SETTINGS_COMMANDS } from './table-settings.js';

/**
 * Every `/ci` command, in the order help lists them. The parser, the help text and the parsed
 * command types (types.ts) all derive from this table.
 */
export const COMMANDS = {
  ...ACCOUNT_COMMANDS,
  ...BUILD_COMMANDS,
  ...SETTINGS_COMMANDS,
  ...CHANNEL_COMMANDS,
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

export const COMMAND_NAMES = Object.keys(COMMANDS) as CommandName[];

export const GROUP_TITLES: Readonly<Record<CommandGroup, string>> = {
  start: 'Getting started',
  account: 'Your account',
  repository: 'Repositories',
  builds: 'Builds and jobs',
  settings: 'Settings, caches and keys',
  channel: 'This channel',
  migration: 'Migration',
};

const BY_WORD = new Map<string, CommandName>();
for (const name of COMMAND_NAMES) {
  const spec: CommandSpec = COMMANDS[name];
  BY_WORD.set(name, name);
  for (const alias of spec.aliases ?? []) BY_WORD.set(alias, name);
}

/** The command a name or alias stands for (case-insensitive). */
export function findCommand(word: string): CommandName | undefined {
  return BY_WORD.get(word.toLowerCase());
}

/** Every word that names a command: names and aliases. */
export function commandWords(): string[] {
  return [...BY_WORD.keys()];
}

export function commandSpec(name: CommandName): CommandSpec {
  return COMMANDS[name];
}
