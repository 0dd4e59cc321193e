import { DEPLOYMENTS } from '../../config.js';
import { escapeMrkdwn, inlineCode } from '../text/escape.js';
import { truncate } from '../text/truncate.js';
import { COMMAND_NAMES, commandSpec, commandWords, findCommand, GROUP_TITLES } from './commands.js';
import { FILTER_SUMMARIES } from './filters.js';
import type { CommandGroup, FormSpec } from './spec.js';
import { hasSubcommands } from './spec.js';
import { closest } from './suggest.js';
import type { ParseError } from './types.js';
import { flagUsage, formUsage, synopsis } from './usage.js';

/** Help text (mrkdwn) generated from the command table, so it cannot drift from the parser. */

const code = (text: string) => `\`${escapeMrkdwn(text)}\``;

/** How to write references; `&lt;` is how mrkdwn shows `<`. */
const REFERENCES = [
  '• a repository: `owner/name` or its id',
  '• a build: its id, `owner/name#123` (build number), `owner/name@branch` (its last build) or a pasted build link',
  '• a job: its id, `owner/name#123.2` (job number) or a pasted job link',
  '• in a channel with a repository (`/ci use owner/name`), leave `&lt;repo&gt;` out, and write `#123` or `@main` for its builds',
  `• choose the CI deployment with ${DEPLOYMENTS.map((d) => `\`--${d}\``).join(', ')} (default: yours)`,
].join('\n');

export interface HelpSection {
  title: string;
  /** mrkdwn lines, each `/ci command …` — summary; well under a section block's 3,000 characters. */
  text: string;
}

/** The overview, one section per group of commands, then how to write references. */
export function helpSections(): HelpSection[] {
  const groups = new Map<CommandGroup, string[]>();
  for (const name of COMMAND_NAMES) {
    const spec = commandSpec(name);
    const lines = groups.get(spec.group) ?? [];
    lines.push(`${code(synopsis(name))} ${escapeMrkdwn(spec.summary)}`);
    groups.set(spec.group, lines);
  }
  const sections = [...groups].map(([group, lines]) => ({
    title: GROUP_TITLES[group],
    text: lines.join('\n'),
  }));
  sections.push({ title: 'References', text: REFERENCES });
  return sections;
}

/** The whole overview as one mrkdwn text. */
export function helpText(): string {
  const sections = helpSections().map((s) => `*${s.title}*\n${s.text}`);
  return ['Use `/ci help &lt;command&gt;` for the details of one command.', ...sections].join('\n\n');
}

function optionLines(form: FormSpec): string[] {
  return Object.entries(form.flags).map(([name, flag]) => {
    const extra =
      flag.type === 'integer'
        ? ` (${flag.min}–${flag.max}${flag.default === undefined ? '' : `, default ${flag.default}`})`
        : '';
    const choices = flag.type === 'choice' ? `: ${flag.choices.join(', ')}` : '';
    return `• ${code(flagUsage(name, flag))} ${escapeMrkdwn(flag.summary)}${choices}${extra}`;
  });
}

/** Help for one command (a name or an alias); for an unknown name, a pointer to the overview. */
export function commandHelp(nameOrAlias: string): string {
  const name = findCommand(nameOrAlias);
  if (name === undefined) {
    const suggestion = closest(nameOrAlias, commandWords());
    return [
      `There is no command ${inlineCode(truncate(nameOrAlias, 60))}.`,
      suggestion ? `Did you mean ${code(`/ci help ${suggestion}`)}?` : '',
      'See `/ci help` for the list.',
    ]
      .filter(Boolean)
      .join(' ');
  }
  const spec = commandSpec(name);
  const lines = [`*/ci ${name}*: ${escapeMrkdwn(spec.summary)}`];
  if (spec.aliases?.length) lines.push(`Also: ${spec.aliases.map((a) => code(`/ci ${a}`)).join(', ')}`);
  if (hasSubcommands(spec)) {
    for (const [sub, form] of Object.entries(spec.subcommands)) {
      lines.push('', `${code(formUsage(name, sub))}`, escapeMrkdwn(form.summary), ...optionLines(form));
    }
    if (spec.defaultSubcommand) lines.push('', `Without a subcommand: \`${spec.defaultSubcommand}\`.`);
  } else {
    lines.push('', code(formUsage(name)), ...optionLines(spec));
  }
  if (name === 'subscribe') {
    lines.push(
      '',
      '*Filters*',
      ...FILTER_SUMMARIES.map(([syntax, summary]) => `• ${code(syntax)} ${summary}`),
    );
  }
  const notes: string[] = [];
  if (spec.args.some((a) => a.channelDefault)) {
    notes.push('In a channel with a repository (`/ci use owner/name`) the repository may be left out.');
  }
  notes.push(`${DEPLOYMENTS.map((d) => `\`--${d}\``).join(', ')} choose the CI deployment.`);
  lines.push('', ...notes, '', '*Examples*', ...spec.examples.map(code));
  return lines.join('\n');
}

/** A parse error as one mrkdwn message: what is wrong, the usage, and where to read more. */
export function errorText(error: ParseError): string {
  const parts = [error.message];
  if (error.usage) parts.push(`Usage:\n${error.usage}`);
  if (error.command) parts.push(`More: ${code(`/ci help ${error.command}`)}`);
  else if (error.kind === 'unknown_command' && !error.message.includes('/ci help'))
    parts.push('See `/ci help`.');
  return parts.join('\n');
}
