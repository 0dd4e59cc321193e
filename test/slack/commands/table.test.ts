import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  COMMAND_NAMES,
  COMMANDS,
  commandHelp,
  helpSections,
  helpText,
  parseCommand,
  usageLines,
} from '../../../src/slack/commands/index.js';
import type { CommandSpec, FormSpec } from '../../../src/slack/commands/spec.js';
import { hasSubcommands } from '../../../src/slack/commands/spec.js';
import type { RepoRef } from '../../../src/slack/refs.js';
import { MAX_SECTION_TEXT, MAX_TOTAL_BLOCK_TEXT } from '../../../src/slack/text/limits.js';

const channelRepo: RepoRef = { kind: 'slug', owner: 'octo', name: 'lib', slug: 'octo/lib' };
const context = { channelRepo, webUrls: { com: 'https://app.travis-ci.com' } };
const specOf = (name: string): CommandSpec => (COMMANDS as Record<string, CommandSpec>)[name] as CommandSpec;
const formsOf = (spec: CommandSpec): [string | undefined, FormSpec][] =>
  hasSubcommands(spec) ? Object.entries(spec.subcommands) : [[undefined, spec]];

/** Every command of issues 3, 4 and 5. */
const ISSUE_COMMANDS = [
  'help',
  'login',
  'logout',
  'whoami',
  'accounts',
  'repos',
  'permissions',
  'broadcasts',
  'sync',
  'repo',
  'enable',
  'disable',
  'branches',
  'requests',
  'status',
  'builds',
  'build',
  'jobs',
  'restart',
  'cancel',
  'logs',
  'env',
  'settings',
  'caches',
  'pubkey',
  'encrypt',
  'sshkey',
  'lint',
  'use',
  'subscribe',
  'unsubscribe',
  'subscriptions',
  'notify',
  'migrate',
];

/** The commands (or subcommands) that change something, and so accept --quiet. */
const CHANGES = [
  'enable',
  'disable',
  'restart',
  'cancel',
  'env set',
  'env unset',
  'settings',
  'caches delete',
  'pubkey',
  'sshkey set',
  'sshkey delete',
  'use',
  'subscribe',
  'unsubscribe',
];

describe('the command table', () => {
  it('has exactly the commands of the issues', () => {
    assert.deepEqual([...COMMAND_NAMES].sort(), [...ISSUE_COMMANDS].sort());
  });

  it('has the CLI aliases, none of which hides a command', () => {
    const aliases = COMMAND_NAMES.flatMap((n) => specOf(n).aliases ?? []);
    assert.deepEqual(aliases.sort(), ['cache', 'history', 'log', 'show']);
    for (const alias of aliases) assert.ok(!(COMMAND_NAMES as string[]).includes(alias));
  });

  it('runs every example in the table', () => {
    for (const name of COMMAND_NAMES) {
      for (const example of specOf(name).examples) {
        assert.ok(example.startsWith('/ci '), example);
        const result = parseCommand(example.slice(4), context);
        assert.ok(result.ok, `${example}: ${result.ok ? '' : result.error.message}`);
        assert.equal(result.command.name, name, example);
      }
    }
  });

  it('accepts --com, --org and --enterprise everywhere', () => {
    for (const name of COMMAND_NAMES) {
      for (const deployment of ['com', 'org', 'enterprise']) {
        const example = specOf(name).examples[0] ?? '';
        const result = parseCommand(`${example.slice(4)} --${deployment}`, context);
        assert.ok(result.ok && result.command.deployment === deployment, `${example} --${deployment}`);
      }
    }
  });

  it('accepts --quiet exactly where something changes', () => {
    const quiet = COMMAND_NAMES.flatMap((name) =>
      formsOf(specOf(name))
        .filter(([, form]) => 'quiet' in form.flags)
        .map(([sub]) => (sub ? `${name} ${sub}` : name)),
    );
    assert.deepEqual(quiet.sort(), [...CHANGES].sort());
  });

  it('keeps field names apart', () => {
    const reserved = ['name', 'sub', 'usedChannelRepo'];
    for (const name of COMMAND_NAMES) {
      const spec = specOf(name);
      const flagTypes = new Map<string, string>();
      for (const [, form] of formsOf(spec)) {
        const args = hasSubcommands(spec) ? [...spec.args, ...form.args] : form.args;
        const fields = [...args.map((a) => a.name), ...Object.keys(form.flags)];
        assert.equal(new Set(fields).size, fields.length, `${name}: a field is named twice`);
        for (const field of fields) assert.ok(!reserved.includes(field), `${name}.${field}`);
        for (const arg of args) {
          if (arg.name === 'deployment') assert.equal(arg.kind, 'deployment');
          if (arg.many || arg.kind === 'filters')
            assert.equal(arg, args.at(-1), `${name}: ${arg.name} must be last`);
        }
        // An option means the same in every subcommand (tokens are split before the subcommand is known).
        for (const [flag, spec] of Object.entries(form.flags)) {
          const type = JSON.stringify(spec);
          assert.equal(flagTypes.get(flag) ?? type, type, `${name} --${flag}`);
          flagTypes.set(flag, type);
        }
      }
    }
  });
});

describe('help', () => {
  it('lists every command within Slack limits, with no raw markup', () => {
    const text = helpText();
    for (const name of COMMAND_NAMES) assert.ok(text.includes(`\`/ci ${name}`), name);
    assert.ok(text.length < MAX_TOTAL_BLOCK_TEXT);
    assert.ok(!/[<>]/.test(text));
    for (const section of helpSections()) {
      assert.ok(section.text.length < MAX_SECTION_TEXT, section.title);
      assert.ok(section.title.length > 0);
    }
  });

  it('explains each command: usage, every option, aliases, examples', () => {
    for (const name of COMMAND_NAMES) {
      const spec = specOf(name);
      const help = commandHelp(name);
      assert.ok(help.length < MAX_SECTION_TEXT, `${name}: ${help.length}`);
      assert.ok(!/[<>]/.test(help), name);
      for (const line of usageLines(name))
        assert.ok(help.includes(line.replace(/</g, '&lt;').replace(/>/g, '&gt;')), line);
      for (const [, form] of formsOf(spec))
        for (const flag of Object.keys(form.flags)) assert.ok(help.includes(`--${flag}`));
      for (const alias of spec.aliases ?? []) assert.ok(help.includes(`/ci ${alias}`));
      for (const example of spec.examples) assert.ok(help.includes(example.replace(/</g, '&lt;')));
      assert.match(help, /--com/);
    }
    assert.equal(commandHelp('show'), commandHelp('build'));
    assert.match(commandHelp('subscribe'), /only:failures/);
    assert.match(commandHelp('requests'), /1–100, default 25/);
    assert.match(commandHelp('biuld'), /Did you mean `\/ci help build`\?/);
    assert.ok(!/[<>]/.test(commandHelp('<!here>')));
  });

  it('gives one usage line per form', () => {
    assert.deepEqual(usageLines('builds'), ['/ci builds <repo> [--pr | --push] [--branch <branch>]']);
    assert.deepEqual(usageLines('env'), [
      '/ci env <repo> [list]',
      '/ci env <repo> set <NAME> [--public] [--quiet]',
      '/ci env <repo> unset <NAME> [--quiet]',
    ]);
    assert.deepEqual(usageLines('jobs'), ['/ci jobs (--state <state> | --queue <queue>)']);
    assert.deepEqual(usageLines('migrate'), ['/ci migrate <repo|owner/*> [<repo|owner/*> …]']);
    assert.deepEqual(usageLines('notify'), ['/ci notify [me] on|off']);
  });
});
