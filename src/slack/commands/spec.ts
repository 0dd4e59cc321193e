/**
 * The shapes of the command table. The table (commands.ts) is written with `as const`, and
 * types.ts derives each parsed command's TypeScript type from it, so the parser, the help and the
 * types all come from one declaration.
 */

/** What a positional argument holds, and so how it is read (refs.ts for references). */
export type ArgKind =
  | 'repo'
  /** A repository or `owner/*`. */
  | 'repo-target'
  | 'build'
  | 'job'
  | 'build-or-job'
  /** An environment variable name. */
  | 'name'
  /** Free text (one token; quotes keep spaces). */
  | 'text'
  | 'deployment'
  /** One of `choices`. */
  | 'choice'
  /** A command name or alias (for `help`). */
  | 'command'
  /** Every remaining token, read as subscription filters. */
  | 'filters';

export interface ArgSpec {
  /** The field of the parsed command that holds the value. */
  readonly name: string;
  readonly kind: ArgKind;
  /** The placeholder in usage lines; a default per kind otherwise. */
  readonly label?: string;
  readonly optional?: boolean;
  /** A repository that may be left out where the channel has a default (`/ci use`). */
  readonly channelDefault?: boolean;
  /** One or more values, up to `max`; only on the last argument. */
  readonly many?: { readonly max: number };
  readonly choices?: readonly string[];
}

export type FlagSpec =
  | { readonly type: 'boolean'; readonly summary: string }
  | { readonly type: 'string'; readonly value: string; readonly summary: string; readonly check?: FlagCheck }
  | {
      readonly type: 'integer';
      readonly value: string;
      readonly summary: string;
      readonly min: number;
      readonly max: number;
      readonly default?: number;
    }
  | {
      readonly type: 'choice';
      readonly value: string;
      readonly summary: string;
      readonly choices: readonly string[];
    };

/** How a string flag's value is checked: a branch name, a GitHub login, or any text. */
export type FlagCheck = 'branch' | 'login' | 'text';

/** One way to call a command: a plain command has one, a command with subcommands one per subcommand. */
export interface FormSpec {
  readonly summary: string;
  readonly args: readonly ArgSpec[];
  readonly flags: { readonly [flag: string]: FlagSpec };
  /** Groups of argument or flag names of which at most one may be given. */
  readonly atMostOne?: readonly (readonly string[])[];
  /** Groups of flag names of which exactly one must be given. */
  readonly exactlyOne?: readonly (readonly string[])[];
}

export type CommandGroup =
  | 'start'
  | 'account'
  | 'repository'
  | 'builds'
  | 'settings'
  | 'channel'
  | 'migration';

interface CommandInfo {
  readonly group: CommandGroup;
  readonly summary: string;
  readonly aliases?: readonly string[];
  /** Full command lines (`/ci …`); a test parses each one. */
  readonly examples: readonly string[];
}

export interface PlainCommandSpec extends CommandInfo, FormSpec {}

export interface SubcommandSpec extends CommandInfo {
  /** Arguments before the subcommand word (the repository); the subcommand may also come first. */
  readonly args: readonly ArgSpec[];
  readonly subcommands: { readonly [sub: string]: FormSpec };
  /** The subcommand used when none is named. */
  readonly defaultSubcommand?: string;
}

export type CommandSpec = PlainCommandSpec | SubcommandSpec;

export function hasSubcommands(spec: CommandSpec): spec is SubcommandSpec {
  return 'subcommands' in spec;
}

/** Shared pieces of the table. */
export const REPO = { name: 'repo', kind: 'repo', channelDefault: true } as const;
export const QUIET = { type: 'boolean', summary: 'do not announce the change in the channel' } as const;
export const NO_FLAGS = {} as const;
