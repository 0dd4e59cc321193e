import type { CommandSpec } from './spec.js';
import { NO_FLAGS, QUIET } from './spec.js';

const TARGET = { name: 'target', kind: 'repo-target', channelDefault: true } as const;

/** The channel's repository, subscriptions, personal notifications and migration. */
export const CHANNEL_COMMANDS = {
  use: {
    group: 'channel',
    summary: "Set this channel's repository, so commands here may leave it out (no repository: show it).",
    args: [{ name: 'repo', kind: 'repo', optional: true }],
    flags: { clear: { type: 'boolean', summary: "forget this channel's repository" }, quiet: QUIET },
    atMostOne: [['repo', 'clear']],
    examples: ['/ci use octo/app', '/ci use', '/ci use --clear'],
  },
  subscribe: {
    group: 'channel',
    summary: "Post this channel a message for each build of a repository, or of all an owner's repositories.",
    args: [TARGET, { name: 'filters', kind: 'filters' }],
    flags: { quiet: QUIET },
    examples: [
      '/ci subscribe octo/app',
      '/ci subscribe octo/* branches:main,release/* only:failures',
      '/ci subscribe octo/app events:push,cron exclude-authors:dependabot*,renovate* threads:off',
    ],
  },
  unsubscribe: {
    group: 'channel',
    summary: 'Stop posting builds of a repository (or of owner/*) in this channel.',
    args: [TARGET],
    flags: { quiet: QUIET },
    examples: ['/ci unsubscribe octo/app', '/ci unsubscribe octo/*'],
  },
  subscriptions: {
    group: 'channel',
    summary: "This channel's subscriptions and their filters.",
    args: [],
    flags: NO_FLAGS,
    examples: ['/ci subscriptions'],
  },
  notify: {
    group: 'channel',
    summary: 'Direct messages about builds of your own commits.',
    args: [],
    subcommands: {
      me: {
        summary: 'Turn direct messages on or off.',
        args: [{ name: 'state', kind: 'choice', choices: ['on', 'off'] }],
        flags: NO_FLAGS,
      },
    },
    defaultSubcommand: 'me',
    examples: ['/ci notify me on', '/ci notify me off'],
  },
  migrate: {
    group: 'migration',
    summary:
      'Move repositories (up to 50, or owner/*) from the open-source deployment to the hosted one, after a confirmation.',
    args: [{ name: 'targets', kind: 'repo-target', channelDefault: true, many: { max: 50 } }],
    flags: NO_FLAGS,
    examples: ['/ci migrate octo/app', '/ci migrate octo/app octo/lib octo/site.io', '/ci migrate octo/*'],
  },
} as const satisfies Record<string, CommandSpec>;
