import type { CommandSpec } from './spec.js';
import { NO_FLAGS, QUIET, REPO } from './spec.js';

const VARIABLE = { name: 'variable', kind: 'name', label: 'NAME' } as const;
const CACHE_FILTERS = {
  branch: { type: 'string', value: 'branch', check: 'branch', summary: 'only caches of this branch' },
  match: {
    type: 'string',
    value: 'text',
    check: 'text',
    summary: 'only caches whose name contains this text',
  },
} as const;

/** Environment variables, settings, caches, keys and configuration. */
export const SETTINGS_COMMANDS = {
  env: {
    group: 'settings',
    summary: "A repository's environment variables (private values are never shown).",
    args: [REPO],
    subcommands: {
      list: { summary: 'List the variables.', args: [], flags: NO_FLAGS },
      set: {
        summary: 'Add or change a variable (a form asks for the value).',
        args: [VARIABLE],
        flags: { public: { type: 'boolean', summary: 'show the value in build logs' }, quiet: QUIET },
      },
      unset: { summary: 'Delete a variable.', args: [VARIABLE], flags: { quiet: QUIET } },
    },
    defaultSubcommand: 'list',
    examples: [
      '/ci env octo/app',
      '/ci env octo/app set DEPLOY_KEY',
      '/ci env set DEBUG --public',
      '/ci env octo/app unset OLD_TOKEN',
    ],
  },
  settings: {
    group: 'settings',
    summary: "Edit a repository's build settings in a form.",
    args: [REPO],
    flags: { quiet: QUIET },
    examples: ['/ci settings octo/app'],
  },
  caches: {
    group: 'settings',
    summary: "A repository's build caches.",
    aliases: ['cache'],
    args: [REPO],
    subcommands: {
      list: { summary: 'List the caches.', args: [], flags: CACHE_FILTERS },
      delete: {
        summary: 'Delete caches (all, or those the options select).',
        args: [],
        flags: { ...CACHE_FILTERS, quiet: QUIET },
      },
    },
    defaultSubcommand: 'list',
    examples: [
      '/ci caches octo/app',
      '/ci cache octo/app delete --branch main',
      '/ci caches delete --match node_modules',
    ],
  },
  pubkey: {
    group: 'settings',
    summary: "A repository's public key, used to encrypt secure values.",
    args: [REPO],
    flags: {
      regenerate: {
        type: 'boolean',
        summary: 'make a new key pair (every value encrypted with the old key stops working)',
      },
      quiet: QUIET,
    },
    examples: ['/ci pubkey octo/app', '/ci pubkey octo/app --regenerate'],
  },
  encrypt: {
    group: 'settings',
    summary: 'Encrypt NAME=value for the configuration file (in a form; nothing is stored).',
    args: [REPO],
    flags: NO_FLAGS,
    examples: ['/ci encrypt octo/app'],
  },
  sshkey: {
    group: 'settings',
    summary: "A repository's custom SSH key.",
    args: [REPO],
    subcommands: {
      show: { summary: 'Show the key description and fingerprint.', args: [], flags: NO_FLAGS },
      set: { summary: 'Add or replace the key (a form asks for it).', args: [], flags: { quiet: QUIET } },
      delete: { summary: 'Delete the key.', args: [], flags: { quiet: QUIET } },
    },
    defaultSubcommand: 'show',
    examples: ['/ci sshkey octo/app', '/ci sshkey octo/app set', '/ci sshkey delete octo/app'],
  },
  lint: {
    group: 'settings',
    summary: 'Check a build configuration file (paste it in a form).',
    args: [],
    flags: NO_FLAGS,
    examples: ['/ci lint'],
  },
} as const satisfies Record<string, CommandSpec>;
