import type { Deployment } from '../../config.js';
import type { BuildOrJobRef, BuildRef, JobRef, RepoRef, RepoTarget } from '../refs.js';
import type { COMMANDS, CommandName } from './commands.js';
import type { SubscriptionFilters } from './filters.js';
import type { ArgKind, ArgSpec, FlagSpec } from './spec.js';

/**
 * The parsed command types, derived from the command table: for each command (and subcommand) an
 * object with `name` (and `sub`), the common fields, one field per argument and one per flag.
 * For example `/ci builds octo/app --pr` gives
 * `{ name: 'builds', repo: {kind: 'slug', …}, branch: undefined, pr: true, push: false, deployment: undefined, usedChannelRepo: false }`.
 */

interface KindValues {
  repo: RepoRef;
  'repo-target': RepoTarget;
  build: BuildRef;
  job: JobRef;
  'build-or-job': BuildOrJobRef;
  name: string;
  text: string;
  deployment: Deployment;
  choice: string;
  command: CommandName;
  filters: SubscriptionFilters;
}

type ArgValue<A extends ArgSpec> = A extends { choices: readonly (infer C)[] }
  ? C
  : KindValues[A['kind'] & ArgKind];
type ArgField<A extends ArgSpec> = A extends { many: object }
  ? ArgValue<A>[]
  : A extends { optional: true }
    ? ArgValue<A> | undefined
    : ArgValue<A>;
type ArgFields<Args extends readonly ArgSpec[]> = { [A in Args[number] as A['name']]: ArgField<A> };

type FlagField<F extends FlagSpec> = F extends { type: 'boolean' }
  ? boolean
  : F extends { type: 'integer'; default: number }
    ? number
    : F extends { type: 'integer' }
      ? number | undefined
      : F extends { choices: readonly (infer C)[] }
        ? C | undefined
        : string | undefined;
type FlagFields<Flags> = { [K in keyof Flags]: Flags[K] extends FlagSpec ? FlagField<Flags[K]> : never };

type FormFields<F> = F extends { args: infer A extends readonly ArgSpec[]; flags: infer Flags }
  ? ArgFields<A> & FlagFields<Flags>
  : never;

/** Fields every parsed command has. */
export interface CommonFields {
  /** From `--com`/`--org`/`--enterprise`, the `login`/`logout` argument, or a pasted link. */
  deployment: Deployment | undefined;
  /** True when a repository came from the channel's default (`/ci use`). */
  usedChannelRepo: boolean;
}

type Simplify<T> = { [K in keyof T]: T[K] } & {};

type ParsedOf<N extends CommandName, S> = S extends {
  subcommands: infer Subs;
  args: infer Prefix extends readonly ArgSpec[];
}
  ? {
      [K in keyof Subs & string]: Simplify<
        { name: N; sub: K } & CommonFields & ArgFields<Prefix> & FormFields<Subs[K]>
      >;
    }[keyof Subs & string]
  : Simplify<{ name: N } & CommonFields & FormFields<S>>;

type Commands = typeof COMMANDS;

/** A successfully parsed command: a discriminated union on `name` (and on `sub` where there are subcommands). */
export type ParsedCommand = { [N in CommandName]: ParsedOf<N, Commands[N]> }[CommandName];

/** The parsed form of one command, e.g. `ParsedCommandOf<'builds'>`. */
export type ParsedCommandOf<N extends CommandName> = Extract<ParsedCommand, { name: N }>;

export type ParseErrorKind =
  /** The first word is not a command; `suggestion` may name the closest one. */
  | 'unknown_command'
  /** Missing or extra arguments, unknown or malformed options, conflicting options, unclosed quotes. */
  | 'usage'
  /** A repository, build or job reference that cannot be read (or a link of an unknown host). */
  | 'bad_reference'
  /** The text is longer than any command can be. */
  | 'too_long';

export interface ParseError {
  kind: ParseErrorKind;
  /** What is wrong, as mrkdwn safe to post (user text in it is escaped). */
  message: string;
  /** The usage line(s) of the command or subcommand concerned, as mrkdwn (in backticks). */
  usage?: string;
  /** A command to try instead (a command name, or a whole command line in the case of a reference). */
  suggestion?: string;
  /** The command the error is about, when known (for `commandHelp`). */
  command?: CommandName;
}

export type ParseResult = { ok: true; command: ParsedCommand } | { ok: false; error: ParseError };

export interface ParseContext {
  /** The channel's default repository (`/ci use`), used where a command's repository is left out. */
  channelRepo?: RepoRef;
  /** Web app base URLs of the configured deployments, so pasted build and job links can be read. */
  webUrls?: Partial<Record<Deployment, string>>;
}
