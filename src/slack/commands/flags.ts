import { DEPLOYMENTS, type Deployment } from '../../config.js';
import { isBranchName } from '../refs.js';
import { inlineCode } from '../text/escape.js';
import { truncate } from '../text/truncate.js';
import type { CommandSpec, FlagCheck, FlagSpec, FormSpec } from './spec.js';
import { hasSubcommands } from './spec.js';
import { closest } from './suggest.js';
import type { Token } from './tokenize.js';

/** Options: telling them from positional words, and reading their values. */

export interface FlagToken {
  name: string;
  /** The value for a valued option; absent for a switch. */
  value?: string;
}

export interface SplitTokens {
  positionals: string[];
  flags: FlagToken[];
  deployments: Deployment[];
  wantsHelp: boolean;
}

export type Checked<T> = { ok: true; value: T } | { ok: false; message: string; suggestion?: string };

const shown = (s: string) => inlineCode(truncate(s, 60));

/** Every option any form of the command takes, by name. */
export function commandFlags(spec: CommandSpec): Map<string, FlagSpec> {
  const forms: FormSpec[] = hasSubcommands(spec) ? Object.values(spec.subcommands) : [spec];
  const flags = new Map<string, FlagSpec>();
  for (const form of forms) for (const [name, flag] of Object.entries(form.flags)) flags.set(name, flag);
  return flags;
}

/** `--name`, `--name=value`, and the long dashes phones put in place of `--` (`—name`). */
function optionOf(token: Token): { name: string; value?: string } | undefined {
  if (token.quoted) return undefined;
  const match = /^(?:--|\u2014|\u2013)([A-Za-z][A-Za-z0-9-]*)(?:=(.*))?$/s.exec(token.text);
  if (!match?.[1]) return undefined;
  return match[2] === undefined
    ? { name: match[1].toLowerCase() }
    : { name: match[1].toLowerCase(), value: match[2] };
}

const looksLikeOption = (token: Token) => !token.quoted && /^(--|\u2014|\u2013|-)[A-Za-z]/.test(token.text);

/** Separates options from positional words, using the command's options to know which take a value. */
export function splitTokens(tokens: readonly Token[], known: Map<string, FlagSpec>): Checked<SplitTokens> {
  const out: SplitTokens = { positionals: [], flags: [], deployments: [], wantsHelp: false };
  let optionsEnded = false;
  for (let i = 0; i < tokens.length; i++) {
    const token = tokens[i];
    if (token === undefined) continue;
    if (optionsEnded) {
      out.positionals.push(token.text);
      continue;
    }
    if (!token.quoted && token.text === '--') {
      optionsEnded = true;
      continue;
    }
    if (!token.quoted && (token.text === '-h' || token.text === '-?')) {
      out.wantsHelp = true;
      continue;
    }
    const option = optionOf(token);
    if (!option) {
      if (looksLikeOption(token)) {
        return {
          ok: false,
          message: `${shown(token.text)} is not an option: options start with two dashes, like \`--quiet\`.`,
        };
      }
      out.positionals.push(token.text);
      continue;
    }
    const { name } = option;
    if (name === 'help') {
      out.wantsHelp = true;
      continue;
    }
    const deployment = DEPLOYMENTS.find((d) => d === name);
    if (deployment) {
      if (option.value !== undefined) return { ok: false, message: `${shown(`--${name}`)} takes no value.` };
      out.deployments.push(deployment);
      continue;
    }
    const flag = known.get(name);
    if (!flag) {
      const suggestion = closest(name, [...known.keys(), ...DEPLOYMENTS]);
      return {
        ok: false,
        message: `${shown(`--${name}`)} is not an option of this command.${suggestion ? ` Did you mean \`--${suggestion}\`?` : ''}`,
        ...(suggestion ? { suggestion: `--${suggestion}` } : {}),
      };
    }
    if (flag.type === 'boolean') {
      if (option.value !== undefined) return { ok: false, message: `${shown(`--${name}`)} takes no value.` };
      out.flags.push({ name });
      continue;
    }
    if (option.value !== undefined) {
      out.flags.push({ name, value: option.value });
      continue;
    }
    const next = tokens[i + 1];
    if (next === undefined || looksLikeOption(next)) {
      return {
        ok: false,
        message: `${shown(`--${name}`)} needs a value: ${inlineCode(`--${name} <${flag.value}>`)}.`,
      };
    }
    out.flags.push({ name, value: next.text });
    i++;
  }
  return { ok: true, value: out };
}

const LOGIN = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;

function checkText(check: FlagCheck | undefined, name: string, value: string): string | undefined {
  if (value === '') return `${shown(`--${name}`)} needs a value.`;
  if (value.length > 255) return `The value of ${shown(`--${name}`)} is too long.`;
  if (check === 'branch' && !isBranchName(value)) return `${shown(value)} is not a valid branch name.`;
  if (check === 'login' && !LOGIN.test(value)) return `${shown(value)} is not a valid GitHub login.`;
  return undefined;
}

/** Reads the options given to one form: typed values, defaults filled in, each option at most once. */
export function readFlags(
  form: FormSpec,
  given: readonly FlagToken[],
  whereItWorks: (flag: string) => string,
): Checked<Record<string, unknown>> {
  const values: Record<string, unknown> = {};
  for (const [name, flag] of Object.entries(form.flags)) {
    values[name] = flag.type === 'boolean' ? false : flag.type === 'integer' ? flag.default : undefined;
  }
  const seen = new Set<string>();
  for (const { name, value } of given) {
    const flag = form.flags[name];
    if (!flag) return { ok: false, message: `${shown(`--${name}`)} only works with ${whereItWorks(name)}.` };
    if (seen.has(name)) return { ok: false, message: `${shown(`--${name}`)} is given twice.` };
    seen.add(name);
    const read = readValue(name, flag, value ?? '');
    if (!read.ok) return read;
    values[name] = read.value;
  }
  return { ok: true, value: values };
}

function readValue(name: string, flag: FlagSpec, value: string): Checked<unknown> {
  switch (flag.type) {
    case 'boolean':
      return { ok: true, value: true };
    case 'integer': {
      const n = /^[0-9]{1,9}$/.test(value) ? Number(value) : Number.NaN;
      if (!(n >= flag.min && n <= flag.max)) {
        return {
          ok: false,
          message: `${shown(`--${name}`)} must be a whole number from ${flag.min} to ${flag.max}, not ${shown(value)}.`,
        };
      }
      return { ok: true, value: n };
    }
    case 'choice': {
      const choice = flag.choices.find((c) => c === value.toLowerCase());
      if (choice === undefined) {
        return {
          ok: false,
          message: `${shown(`--${name}`)} must be one of ${flag.choices.join(', ')}, not ${shown(value)}.`,
        };
      }
      return { ok: true, value: choice };
    }
    case 'string': {
      const problem = checkText(flag.check, name, value);
      return problem === undefined ? { ok: true, value } : { ok: false, message: problem };
    }
  }
}
