import { DEPLOYMENTS } from '../../config.js';
import {
  type RefResult,
  type RepoRef,
  readBuildOrJobRef,
  readBuildRef,
  readJobRef,
  readRepoRef,
  readRepoTarget,
} from '../refs.js';
import { inlineCode } from '../text/escape.js';
import { truncate } from '../text/truncate.js';
import { commandWords, findCommand } from './commands.js';
import { readFilters } from './filters.js';
import type { ArgSpec } from './spec.js';
import { closest } from './suggest.js';
import type { ParseContext, ParseErrorKind } from './types.js';
import { argUsage } from './usage.js';

/** Positional arguments: reading each word by its kind, and matching words to a form's arguments. */

export type ArgProblem = { kind: ParseErrorKind; message: string; suggestion?: string };
type Read = { ok: true; value: unknown; usedChannelRepo: boolean } | ({ ok: false } & ArgProblem);
export type Matched =
  | { ok: true; values: Record<string, unknown>; usedChannelRepo: boolean }
  | ({ ok: false } & ArgProblem);

const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_]{0,127}$/;
const USE_HINT = "or set this channel's repository with `/ci use owner/name`";
const shown = (s: string) => inlineCode(truncate(s, 60));

const value = (v: unknown, usedChannelRepo = false): Read => ({ ok: true, value: v, usedChannelRepo });
const usage = (message: string): Read => ({ ok: false, kind: 'usage', message });

function fromRef<T>(
  result: RefResult<T>,
  repoOf: (ref: T) => RepoRef | undefined,
  channelRepo?: RepoRef,
): Read {
  if (!result.ok) return { ok: false, kind: 'bad_reference', message: result.reason };
  return value(result.ref, channelRepo !== undefined && repoOf(result.ref) === channelRepo);
}

const repoIn = (ref: { kind: string; repo?: RepoRef }) => ref.repo;

function readArg(arg: ArgSpec, token: string, context: ParseContext): Read {
  const webUrls = context.webUrls ?? {};
  const channelRepo = context.channelRepo;
  switch (arg.kind) {
    case 'repo':
      return fromRef(readRepoRef(token), () => undefined);
    case 'repo-target':
      return fromRef(readRepoTarget(token), () => undefined);
    case 'build':
      return fromRef(readBuildRef(token, webUrls, channelRepo), repoIn, channelRepo);
    case 'job':
      return fromRef(readJobRef(token, webUrls, channelRepo), repoIn, channelRepo);
    case 'build-or-job':
      return fromRef(readBuildOrJobRef(token, webUrls, channelRepo), (r) => repoIn(r.ref), channelRepo);
    case 'name':
      return VARIABLE_NAME.test(token)
        ? value(token)
        : usage(
            `${shown(token)} is not a valid variable name: letters, digits and \`_\`, not starting with a digit.`,
          );
    case 'text':
      return token.trim() === '' ? usage('The search term is empty.') : value(token);
    case 'deployment': {
      const deployment = DEPLOYMENTS.find((d) => d === token.toLowerCase());
      return deployment
        ? value(deployment)
        : usage(`${shown(token)} is not a deployment: use ${DEPLOYMENTS.join(', ')}.`);
    }
    case 'choice': {
      const choices = arg.choices ?? [];
      const choice = choices.find((c) => c === token.toLowerCase());
      return choice ? value(choice) : usage(`${shown(token)} is not one of ${choices.join(', ')}.`);
    }
    case 'command': {
      const name = findCommand(token);
      if (name) return value(name);
      const suggestion = closest(token, commandWords());
      return {
        ok: false,
        kind: 'unknown_command',
        message: `There is no command ${shown(token)}.${suggestion ? ` Did you mean \`${suggestion}\`?` : ''}`,
        ...(suggestion ? { suggestion } : {}),
      };
    }
    case 'filters': {
      const filters = readFilters([token]);
      return filters.ok ? value(filters.filters) : usage(filters.reason);
    }
  }
}

/** The channel's repository in the shape the argument holds. */
function channelValue(arg: ArgSpec, repo: RepoRef): unknown {
  return arg.kind === 'repo-target' ? { kind: 'repo', repo } : repo;
}

function missing(arg: ArgSpec): ArgProblem {
  const hint = arg.channelDefault ? `: add it, ${USE_HINT}` : '';
  return { kind: 'usage', message: `${inlineCode(argUsage(arg))} is missing${hint}.` };
}

/**
 * Matches words to arguments in order. A repository that may come from the channel is taken from
 * the channel when the word in its place is not a repository but fits the next argument
 * (`/ci env unset FOO`, `/ci subscribe only:failures`).
 */
export function matchArgs(
  args: readonly ArgSpec[],
  words: readonly string[],
  context: ParseContext,
): Matched {
  const values: Record<string, unknown> = {};
  let usedChannelRepo = false;
  let next = 0;
  const fromChannel = (arg: ArgSpec) => {
    if (!arg.channelDefault || !context.channelRepo) return undefined;
    usedChannelRepo = true;
    return channelValue(arg, context.channelRepo);
  };

  for (const [index, arg] of args.entries()) {
    const rest = words.slice(next);
    if (arg.kind === 'filters' || arg.many) {
      next = words.length;
      if (arg.kind === 'filters') {
        const filters = readFilters(rest);
        if (!filters.ok) return { ok: false, kind: 'usage', message: filters.reason };
        values[arg.name] = filters.filters;
        continue;
      }
      if (rest.length === 0) {
        const fallback = fromChannel(arg);
        if (fallback === undefined && !arg.optional) return { ok: false, ...missing(arg) };
        values[arg.name] = fallback === undefined ? [] : [fallback];
        continue;
      }
      const max = arg.many?.max ?? 1;
      if (rest.length > max)
        return { ok: false, kind: 'usage', message: `At most ${max} at a time, please.` };
      const list: unknown[] = [];
      for (const word of rest) {
        const read = readArg(arg, word, context);
        if (!read.ok) return read;
        list.push(read.value);
      }
      values[arg.name] = list;
      continue;
    }

    const word = rest[0];
    const read = word === undefined ? undefined : readArg(arg, word, context);
    if (read?.ok) {
      values[arg.name] = read.value;
      usedChannelRepo ||= read.usedChannelRepo;
      next++;
      continue;
    }
    const following = args[index + 1];
    const belongsToNext =
      word !== undefined && following !== undefined && readArg(following, word, context).ok === true;
    if (word === undefined || (arg.channelDefault && belongsToNext)) {
      const fallback = fromChannel(arg);
      if (fallback !== undefined) values[arg.name] = fallback;
      else if (arg.optional) values[arg.name] = undefined;
      else return { ok: false, ...missing(arg) };
      continue;
    }
    if (read) return read;
  }
  const extra = words[next];
  if (extra !== undefined) {
    return {
      ok: false,
      kind: 'usage',
      message: `${shown(extra)} is one word too many (put words with spaces in quotes).`,
    };
  }
  return { ok: true, values, usedChannelRepo };
}
