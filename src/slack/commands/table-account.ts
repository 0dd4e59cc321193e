import type { CommandSpec } from './spec.js';
import { NO_FLAGS } from './spec.js';

/** Getting started and account views. */
export const ACCOUNT_COMMANDS = {
  help: {
    group: 'start',
    summary: 'List the commands, or explain one.',
    args: [{ name: 'topic', kind: 'command', optional: true }],
    flags: NO_FLAGS,
    examples: ['/ci help', '/ci help builds'],
  },
  login: {
    group: 'start',
    summary: 'Link your CI account (opens a form for a CI or GitHub token).',
    args: [{ name: 'deployment', kind: 'deployment', optional: true }],
    flags: NO_FLAGS,
    examples: ['/ci login', '/ci login org'],
  },
  logout: {
    group: 'start',
    summary: 'Unlink your CI account and forget its token.',
    args: [{ name: 'deployment', kind: 'deployment', optional: true }],
    flags: NO_FLAGS,
    examples: ['/ci logout', '/ci logout enterprise'],
  },
  whoami: {
    group: 'start',
    summary: 'Show the CI account linked to you.',
    args: [],
    flags: NO_FLAGS,
    examples: ['/ci whoami', '/ci whoami --org'],
  },
  accounts: {
    group: 'account',
    summary: 'The accounts (you and your organizations) you can use.',
    args: [],
    flags: { all: { type: 'boolean', summary: 'also accounts without active repositories' } },
    examples: ['/ci accounts', '/ci accounts --all'],
  },
  repos: {
    group: 'account',
    summary: 'Your repositories, optionally those whose name contains a term.',
    args: [{ name: 'term', kind: 'text', label: 'term', optional: true }],
    flags: {
      owner: { type: 'string', value: 'login', check: 'login', summary: 'only repositories of this owner' },
      member: {
        type: 'string',
        value: 'login',
        check: 'login',
        summary: 'only repositories this user is a member of',
      },
      active: { type: 'boolean', summary: 'only repositories with builds enabled' },
    },
    examples: ['/ci repos', '/ci repos api --owner octo --active'],
  },
  permissions: {
    group: 'account',
    summary: 'The repositories you can read, build and administer.',
    args: [],
    flags: NO_FLAGS,
    examples: ['/ci permissions'],
  },
  broadcasts: {
    group: 'account',
    summary: 'Announcements from the CI service.',
    args: [],
    flags: NO_FLAGS,
    examples: ['/ci broadcasts'],
  },
  sync: {
    group: 'account',
    summary: 'Refresh your repositories and permissions from GitHub.',
    args: [],
    flags: NO_FLAGS,
    examples: ['/ci sync'],
  },
} as const satisfies Record<string, CommandSpec>;
