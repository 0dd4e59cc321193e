import type { CommandSpec } from './spec.js';
import { NO_FLAGS, QUIET, REPO } from './spec.js';

const JOB_STATES = [
  'created',
  'received',
  'queued',
  'started',
  'passed',
  'failed',
  'errored',
  'canceled',
  'ready',
] as const;

/** Repository views and activation, builds and jobs. */
export const BUILD_COMMANDS = {
  repo: {
    group: 'repository',
    summary: 'A repository: its description, activity and last build.',
    args: [REPO],
    flags: NO_FLAGS,
    examples: ['/ci repo octo/app', '/ci repo 4242'],
  },
  enable: {
    group: 'repository',
    summary: 'Turn builds on for a repository.',
    args: [REPO],
    flags: { quiet: QUIET },
    examples: ['/ci enable octo/app'],
  },
  disable: {
    group: 'repository',
    summary: 'Turn builds off for a repository.',
    args: [REPO],
    flags: { quiet: QUIET },
    examples: ['/ci disable octo/app --quiet'],
  },
  branches: {
    group: 'repository',
    summary: 'The latest build of each recently built branch.',
    args: [REPO],
    flags: NO_FLAGS,
    examples: ['/ci branches octo/app'],
  },
  requests: {
    group: 'repository',
    summary: 'Recent build requests, with the reason when one was rejected.',
    args: [REPO],
    flags: {
      limit: { type: 'integer', value: 'n', min: 1, max: 100, default: 25, summary: 'how many requests' },
    },
    examples: ['/ci requests octo/app --limit 10'],
  },
  status: {
    group: 'builds',
    summary: 'The state of the last build of a repository.',
    args: [REPO],
    flags: NO_FLAGS,
    examples: ['/ci status octo/app'],
  },
  builds: {
    group: 'builds',
    summary: 'Recent builds of a repository.',
    aliases: ['history'],
    args: [REPO],
    flags: {
      branch: { type: 'string', value: 'branch', check: 'branch', summary: 'only builds of this branch' },
      pr: { type: 'boolean', summary: 'only pull request builds' },
      push: { type: 'boolean', summary: 'only push builds' },
    },
    atMostOne: [['pr', 'push']],
    examples: ['/ci builds octo/app', '/ci history octo/app --branch main --push'],
  },
  build: {
    group: 'builds',
    summary: 'One build with its jobs.',
    aliases: ['show'],
    args: [{ name: 'build', kind: 'build' }],
    flags: NO_FLAGS,
    examples: ['/ci build octo/app#123', '/ci show octo/app@main', '/ci build 987654'],
  },
  jobs: {
    group: 'builds',
    summary: 'Jobs in a given state, or on a given queue.',
    args: [],
    flags: {
      state: { type: 'choice', value: 'state', choices: JOB_STATES, summary: 'jobs in this state' },
      queue: { type: 'string', value: 'queue', check: 'text', summary: 'jobs on this queue' },
    },
    exactlyOne: [['state', 'queue']],
    examples: ['/ci jobs --state started', '/ci jobs --queue builds.linux'],
  },
  restart: {
    group: 'builds',
    summary: 'Restart a build, or one job of it.',
    args: [{ name: 'target', kind: 'build-or-job' }],
    flags: { quiet: QUIET },
    examples: ['/ci restart octo/app#123', '/ci restart octo/app#123.2'],
  },
  cancel: {
    group: 'builds',
    summary: 'Cancel a build, or one job of it.',
    args: [{ name: 'target', kind: 'build-or-job' }],
    flags: { quiet: QUIET },
    examples: ['/ci cancel octo/app@main', '/ci cancel octo/app#123.2 --quiet'],
  },
  logs: {
    group: 'builds',
    summary: "The last lines of a job's log, cleaned, with a link to the whole log.",
    aliases: ['log'],
    args: [{ name: 'job', kind: 'job' }],
    flags: {
      lines: { type: 'integer', value: 'n', min: 1, max: 500, default: 40, summary: 'how many lines' },
      follow: { type: 'boolean', summary: 'follow the log live in a thread while the job runs' },
      stop: { type: 'boolean', summary: 'stop following the log in this channel' },
    },
    atMostOne: [['follow', 'stop']],
    examples: [
      '/ci logs octo/app#123.2',
      '/ci log octo/app#123.1 --lines 100',
      '/ci logs 55501 --follow',
      '/ci logs 55501 --stop',
    ],
  },
} as const satisfies Record<string, CommandSpec>;
