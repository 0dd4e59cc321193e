/**
 * Renders docs/commands.md from the parser's command table, so the reference cannot drift from
 * what `/ci` accepts. `npx tsx scripts/commands-doc.ts > docs/commands.md` regenerates it;
 * test/docs.test.ts fails when the file is out of date.
 */
import { COMMAND_NAMES, commandSpec, GROUP_TITLES } from '../src/slack/commands/commands.js';
import { usageLines } from '../src/slack/commands/usage.js';

export function commandsDoc(): string {
  const lines = [
    '# `/ci` commands',
    '',
    "Generated from the parser's table (`src/slack/commands/`) by `scripts/commands-doc.ts`; do not edit by hand.",
    'In Slack, `/ci help <command>` shows the same, with every option explained.',
    '',
  ];
  let group: string | undefined;
  for (const name of COMMAND_NAMES) {
    const spec = commandSpec(name);
    if (spec.group !== group) {
      group = spec.group;
      lines.push(`## ${GROUP_TITLES[spec.group]}`, '', '| command | does |', '|---|---|');
    }
    const usage = usageLines(name)
      .map((u) => `\`${u.replace(/\|/g, '\\|')}\``)
      .join('<br>');
    const aliases = spec.aliases?.length ? ` (also ${spec.aliases.map((a) => `\`${a}\``).join(', ')})` : '';
    lines.push(`| ${usage} | ${spec.summary.replace(/\|/g, '\\|')}${aliases} |`);
    const next = COMMAND_NAMES[COMMAND_NAMES.indexOf(name) + 1];
    if (next === undefined || commandSpec(next).group !== group) lines.push('');
  }
  return `${lines.join('\n').trimEnd()}\n`;
}

if (import.meta.url === `file://${process.argv[1]}`) process.stdout.write(commandsDoc());
