import type { Deployment } from '../../config.js';
import { escapeMrkdwn, inlineCode } from '../text/escape.js';
import { truncate } from '../text/truncate.js';
import { type CommandName, commandSpec, commandWords, findCommand } from './commands.js';
import { commandFlags, readFlags, splitTokens } from './flags.js';
import { matchArgs } from './read-args.js';
import type { ArgSpec, FormSpec } from './spec.js';
import { hasSubcommands } from './spec.js';
import { closest } from './suggest.js';
import { tokenize, unslack } from './tokenize.js';
import type { ParseContext, ParsedCommand, ParseError, ParseResult } from './types.js';
import { formUsage, usageLines } from './usage.js';

/** Longer command text than this is refused before any work (50 links fit well within it). */
export const MAX_COMMAND_TEXT = 8000;

const GLOBAL_OPTION = /^(?:(?:--|\u2014|\u2013)(?:com|org|enterprise|help)|-h)$/i;

const shown = (s: string) => inlineCode(truncate(s, 60));
const asCode = (lines: string) =>
  lines
    .split('\n')
    .map((l) => `\`${escapeMrkdwn(l)}\``)
    .join('\n');

function helpFor(topic: CommandName | undefined): ParseResult {
  // The object matches ParsedCommandOf<'help'>; TypeScript cannot see it through the union.
  const command = { name: 'help', topic, deployment: undefined, usedChannelRepo: false } as ParsedCommand;
  return { ok: true, command };
}

function failure(error: ParseError): ParseResult {
  return { ok: false, error };
}

function usageError(
  message: string,
  name: CommandName,
  sub?: string,
  kind: ParseError['kind'] = 'usage',
  suggestion?: string,
) {
  const usage = asCode(formUsage(name, sub));
  return failure({
    kind,
    message,
    usage,
    command: name,
    ...(suggestion === undefined ? {} : { suggestion }),
  });
}

/**
 * Reads the text of a `/ci` command into a typed command, or says precisely what is wrong. Never
 * throws; every error carries a message (mrkdwn, safe to post). Empty text asks for help.
 */
export function parseCommand(text: string, context: ParseContext = {}): ParseResult {
  // Bolt always gives a string; anything else (a missing text from a hand-made payload) is empty.
  if (typeof text !== 'string') return helpFor(undefined);
  if (text.length > MAX_COMMAND_TEXT) {
    return failure({
      kind: 'too_long',
      message: `That is too long for a command (at most ${MAX_COMMAND_TEXT} characters).`,
    });
  }
  const tokenized = tokenize(unslack(text));
  if (!tokenized.ok) return failure({ kind: 'usage', message: tokenized.reason });
  // Options that fit every command may come before it: `/ci --org builds octo/app`.
  const leading = tokenized.tokens.findIndex((t) => t.quoted || !GLOBAL_OPTION.test(t.text));
  const tokens =
    leading <= 0
      ? tokenized.tokens
      : [...tokenized.tokens.slice(leading), ...tokenized.tokens.slice(0, leading)];
  const [first, ...rest] = leading === -1 ? [] : tokens;
  if (first === undefined) return helpFor(undefined);
  if (first.text === '?') return helpFor(undefined);

  const name = findCommand(first.text);
  if (name === undefined) {
    const suggestion = closest(first.text, commandWords());
    const didYouMean = suggestion ? ` Did you mean \`/ci ${suggestion}\`?` : '';
    return failure({
      kind: 'unknown_command',
      message: `${shown(first.text)} is not a command.${didYouMean} See \`/ci help\` for the list.`,
      ...(suggestion ? { suggestion } : {}),
    });
  }

  const spec = commandSpec(name);
  const split = splitTokens(rest, commandFlags(spec));
  if (!split.ok) return usageError(split.message, name, undefined, 'usage', split.suggestion);
  const { positionals, flags, deployments, wantsHelp } = split.value;
  if (wantsHelp) return helpFor(name);
  if (new Set(deployments).size > 1) {
    return usageError('Choose one deployment: `--com`, `--org` or `--enterprise`.', name);
  }

  const chosen = chooseForm(name, positionals);
  if (!chosen.ok) return chosen.result;
  const { form, sub, words, args } = chosen;

  const flagValues = readFlags(form, flags, (flag) => formsWithFlag(name, flag));
  if (!flagValues.ok) return usageError(flagValues.message, name, sub);
  const matched = matchArgs(args, words, context);
  if (!matched.ok) return usageError(matched.message, name, sub, matched.kind, matched.suggestion);

  const values: Record<string, unknown> = { ...flagValues.value, ...matched.values };
  const conflict = checkGroups(form, values);
  if (conflict !== undefined) return usageError(conflict, name, sub);

  const deployment = resolveDeployment(deployments[0], values);
  if (!deployment.ok) return usageError(deployment.message, name, sub);

  // The values were read against this command's table entry, which is what ParsedCommand is derived from.
  const command = {
    ...values,
    name,
    ...(sub === undefined ? {} : { sub }),
    deployment: deployment.value,
    usedChannelRepo: matched.usedChannelRepo,
  } as ParsedCommand;
  return { ok: true, command };
}

type Chosen =
  | { ok: true; form: FormSpec; sub: string | undefined; words: string[]; args: readonly ArgSpec[] }
  | { ok: false; result: ParseResult };

/** The form to read: the command itself, or the subcommand named first or after the repository. */
function chooseForm(name: CommandName, positionals: readonly string[]): Chosen {
  const spec = commandSpec(name);
  if (!hasSubcommands(spec))
    return { ok: true, form: spec, sub: undefined, words: [...positionals], args: spec.args };
  const subs = Object.keys(spec.subcommands);
  const isSub = (word: string | undefined) => word !== undefined && subs.includes(word.toLowerCase());
  const at = isSub(positionals[0]) ? 0 : spec.args.length > 0 && isSub(positionals[1]) ? 1 : -1;
  const sub = at === -1 ? spec.defaultSubcommand : positionals[at]?.toLowerCase();
  const form = sub === undefined ? undefined : spec.subcommands[sub];
  if (form === undefined || sub === undefined) {
    return {
      ok: false,
      result: usageError(`Say what to do: ${subs.map((s) => `\`${s}\``).join(', ')}.`, name),
    };
  }
  const words = at === -1 ? [...positionals] : positionals.filter((_, i) => i !== at);
  return { ok: true, form, sub, words, args: [...spec.args, ...form.args] };
}

function formsWithFlag(name: CommandName, flag: string): string {
  const spec = commandSpec(name);
  if (!hasSubcommands(spec)) return `\`/ci ${name}\``;
  const subs = Object.entries(spec.subcommands)
    .filter(([, form]) => flag in form.flags)
    .map(([sub]) => `\`/ci ${name} ${sub}\``);
  return subs.join(' or ');
}

const isGiven = (v: unknown) => v !== undefined && v !== false && !(Array.isArray(v) && v.length === 0);

function checkGroups(form: FormSpec, values: Record<string, unknown>): string | undefined {
  const label = (n: string) => (n in form.flags ? `\`--${n}\`` : `a ${n}`);
  for (const group of form.atMostOne ?? []) {
    const given = group.filter((n) => isGiven(values[n]));
    if (given.length > 1) return `Use ${given.map(label).join(' or ')}, not both.`;
  }
  for (const group of form.exactlyOne ?? []) {
    const given = group.filter((n) => isGiven(values[n]));
    if (given.length !== 1) return `Give exactly one of ${group.map(label).join(', ')}.`;
  }
  return undefined;
}

type DeploymentResult = { ok: true; value: Deployment | undefined } | { ok: false; message: string };

/** The option, the `login`/`logout` argument and a pasted link must agree on the deployment. */
function resolveDeployment(
  fromOption: Deployment | undefined,
  values: Record<string, unknown>,
): DeploymentResult {
  const named: { source: string; deployment: Deployment }[] = [];
  if (fromOption) named.push({ source: `\`--${fromOption}\``, deployment: fromOption });
  for (const [key, v] of Object.entries(values)) {
    if (key === 'deployment' && typeof v === 'string')
      named.push({ source: `\`${v}\``, deployment: v as Deployment });
    const linked = linkDeployment(v);
    if (linked) named.push({ source: 'the link', deployment: linked });
  }
  const [first] = named;
  const other = named.find((n) => n.deployment !== first?.deployment);
  if (first && other) {
    return {
      ok: false,
      message: `${first.source} and ${other.source} name different deployments: keep one.`,
    };
  }
  return { ok: true, value: first?.deployment };
}

/** The deployment of a reference read from a link (a build, job, or build-or-job value). */
function linkDeployment(v: unknown): Deployment | undefined {
  if (typeof v !== 'object' || v === null) return undefined;
  const ref = 'ref' in v && typeof v.ref === 'object' && v.ref !== null ? v.ref : v;
  return 'kind' in ref && ref.kind === 'url' && 'deployment' in ref
    ? (ref.deployment as Deployment)
    : undefined;
}

/** Every usage line of a command, as mrkdwn. */
export function usageText(name: CommandName): string {
  return asCode(usageLines(name).join('\n'));
}
