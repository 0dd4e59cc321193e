import { type CommandName, commandSpec } from './commands.js';
import type { ArgSpec, FlagSpec, FormSpec } from './spec.js';
import { hasSubcommands } from './spec.js';

/** Usage lines (plain text, e.g. `/ci builds <repo> [--branch <branch>] [--pr | --push]`), from the table. */

const PLACEHOLDERS: Readonly<Record<ArgSpec['kind'], string>> = {
  repo: '<repo>',
  'repo-target': '<repo|owner/*>',
  build: '<build>',
  job: '<job>',
  'build-or-job': '<build|job>',
  name: '<NAME>',
  text: '<text>',
  deployment: 'com|org|enterprise',
  choice: '',
  command: '<command>',
  filters: '[filters…]',
};

export function argUsage(arg: ArgSpec): string {
  const base =
    arg.kind === 'choice'
      ? (arg.choices ?? []).join('|')
      : arg.label !== undefined
        ? `<${arg.label}>`
        : PLACEHOLDERS[arg.kind];
  if (arg.many) return `${base} [${base} …]`;
  return arg.optional && arg.kind !== 'filters' ? `[${base}]` : base;
}

export function flagUsage(name: string, flag: FlagSpec): string {
  return flag.type === 'boolean' ? `--${name}` : `--${name} <${flag.value}>`;
}

function flagsUsage(form: FormSpec): string[] {
  const grouped = new Set<string>();
  const parts: string[] = [];
  for (const group of form.exactlyOne ?? []) {
    parts.push(`(${group.map((f) => flagUsageOf(form, f)).join(' | ')})`);
    for (const f of group) grouped.add(f);
  }
  for (const group of form.atMostOne ?? []) {
    if (!group.every((f) => f in form.flags)) continue; // a group with an argument is explained in help
    parts.push(`[${group.map((f) => flagUsageOf(form, f)).join(' | ')}]`);
    for (const f of group) grouped.add(f);
  }
  for (const [name, flag] of Object.entries(form.flags)) {
    if (!grouped.has(name)) parts.push(`[${flagUsage(name, flag)}]`);
  }
  return parts;
}

function flagUsageOf(form: FormSpec, name: string): string {
  const flag = form.flags[name];
  return flag ? flagUsage(name, flag) : `--${name}`;
}

/** The usage line of one form of a command. */
export function formUsage(name: CommandName, sub?: string): string {
  const spec = commandSpec(name);
  if (!hasSubcommands(spec)) {
    return [`/ci ${name}`, ...spec.args.map(argUsage), ...flagsUsage(spec)].join(' ');
  }
  const form = sub === undefined ? undefined : spec.subcommands[sub];
  if (form === undefined || sub === undefined) return usageLines(name).join('\n');
  const word = sub === spec.defaultSubcommand ? `[${sub}]` : sub;
  return [
    `/ci ${name}`,
    ...spec.args.map(argUsage),
    word,
    ...form.args.map(argUsage),
    ...flagsUsage(form),
  ].join(' ');
}

/** One line per form: a plain command has one, a command with subcommands one per subcommand. */
export function usageLines(name: CommandName): string[] {
  const spec = commandSpec(name);
  if (!hasSubcommands(spec)) return [formUsage(name)];
  return Object.keys(spec.subcommands).map((sub) => formUsage(name, sub));
}

/** The command with its arguments and subcommands, without options, for the overview. */
export function synopsis(name: CommandName): string {
  const spec = commandSpec(name);
  const args = spec.args.map(argUsage);
  if (!hasSubcommands(spec)) {
    const required = (spec.exactlyOne ?? []).map(
      (group) => `(${group.map((f) => flagUsageOf(spec, f)).join(' | ')})`,
    );
    return [`/ci ${name}`, ...args, ...required].join(' ');
  }
  const forms = Object.entries(spec.subcommands);
  const [only] = forms;
  if (forms.length === 1 && only) {
    const word = only[0] === spec.defaultSubcommand ? `[${only[0]}]` : only[0];
    return [`/ci ${name}`, ...args, word, ...only[1].args.map(argUsage)].join(' ');
  }
  const subs = forms.map(([sub]) => sub).join('|');
  return [`/ci ${name}`, ...args, spec.defaultSubcommand ? `[${subs}]` : subs].join(' ');
}
