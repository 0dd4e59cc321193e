import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type ParseContext, type ParsedCommand, parseCommand } from '../../../src/slack/commands/index.js';
import type { RepoRef } from '../../../src/slack/refs.js';

const WEB = { com: 'https://app.travis-ci.com', org: 'https://app.travis-ci.org' };
const octo: RepoRef = { kind: 'slug', owner: 'octo', name: 'app', slug: 'octo/app' };
const lib: RepoRef = { kind: 'slug', owner: 'octo', name: 'lib', slug: 'octo/lib' };
const base: ParseContext = { webUrls: WEB };
const inChannel: ParseContext = { webUrls: WEB, channelRepo: lib };

function parsed(text: string, context: ParseContext = base): ParsedCommand {
  const result = parseCommand(text, context);
  if (!result.ok) assert.fail(`${JSON.stringify(text)} did not parse: ${result.error.message}`);
  return result.command;
}

/** Compares the whole parsed command, so a stray or missing field fails the test. */
function expectCommand(text: string, expected: Record<string, unknown>, context: ParseContext = base) {
  assert.deepEqual(
    { ...parsed(text, context) },
    { deployment: undefined, usedChannelRepo: false, ...expected },
    text,
  );
}

describe('parseCommand: every command of the issues', () => {
  it('reads help, login, logout and whoami', () => {
    expectCommand('', { name: 'help', topic: undefined });
    expectCommand('   ', { name: 'help', topic: undefined });
    expectCommand('help', { name: 'help', topic: undefined });
    expectCommand('help show', { name: 'help', topic: 'build' });
    expectCommand('HELP Builds', { name: 'help', topic: 'builds' });
    expectCommand('builds --help', { name: 'help', topic: 'builds' });
    expectCommand('env set -h', { name: 'help', topic: 'env' });
    expectCommand('login', { name: 'login' });
    expectCommand('login org', { name: 'login', deployment: 'org' });
    expectCommand('login --enterprise', { name: 'login', deployment: 'enterprise' });
    expectCommand('login com --com', { name: 'login', deployment: 'com' });
    expectCommand('logout ORG', { name: 'logout', deployment: 'org' });
    expectCommand('whoami --org', { name: 'whoami', deployment: 'org' });
  });

  it('reads the account views', () => {
    expectCommand('accounts', { name: 'accounts', all: false });
    expectCommand('accounts --all', { name: 'accounts', all: true });
    expectCommand('repos', {
      name: 'repos',
      term: undefined,
      owner: undefined,
      member: undefined,
      active: false,
    });
    expectCommand('repos "my api" --owner octo --member=alice --active', {
      name: 'repos',
      term: 'my api',
      owner: 'octo',
      member: 'alice',
      active: true,
    });
    expectCommand('permissions', { name: 'permissions' });
    expectCommand('broadcasts', { name: 'broadcasts' });
    expectCommand('sync --com', { name: 'sync', deployment: 'com' });
  });

  it('reads the repository commands', () => {
    expectCommand('repo octo/app', { name: 'repo', repo: octo });
    expectCommand('repo 4242', { name: 'repo', repo: { kind: 'id', id: 4242 } });
    expectCommand('enable octo/app', { name: 'enable', repo: octo, quiet: false });
    expectCommand('disable octo/app --quiet', { name: 'disable', repo: octo, quiet: true });
    expectCommand('branches octo/app', { name: 'branches', repo: octo });
    expectCommand('requests octo/app', { name: 'requests', repo: octo, limit: 25 });
    expectCommand('requests octo/app --limit 100', { name: 'requests', repo: octo, limit: 100 });
    expectCommand('status octo/app', { name: 'status', repo: octo });
  });

  it('reads builds and jobs', () => {
    expectCommand('builds octo/app', {
      name: 'builds',
      repo: octo,
      branch: undefined,
      pr: false,
      push: false,
    });
    expectCommand('history octo/app --branch release/2.x --push', {
      name: 'builds',
      repo: octo,
      branch: 'release/2.x',
      pr: false,
      push: true,
    });
    expectCommand('builds octo/app --pr', {
      name: 'builds',
      repo: octo,
      branch: undefined,
      pr: true,
      push: false,
    });
    expectCommand('build 99', { name: 'build', build: { kind: 'id', id: 99 } });
    expectCommand('show octo/app#12', { name: 'build', build: { kind: 'number', repo: octo, number: '12' } });
    expectCommand('build octo/app@main', {
      name: 'build',
      build: { kind: 'branch', repo: octo, branch: 'main' },
    });
    expectCommand('jobs --state started', { name: 'jobs', state: 'started', queue: undefined });
    expectCommand('jobs --queue=builds.linux', { name: 'jobs', state: undefined, queue: 'builds.linux' });
    expectCommand('restart octo/app#12', {
      name: 'restart',
      target: { type: 'build', ref: { kind: 'number', repo: octo, number: '12' } },
      quiet: false,
    });
    expectCommand('restart octo/app#12.3 --quiet', {
      name: 'restart',
      target: { type: 'job', ref: { kind: 'number', repo: octo, number: '12.3' } },
      quiet: true,
    });
    expectCommand('cancel 77', {
      name: 'cancel',
      target: { type: 'build', ref: { kind: 'id', id: 77 } },
      quiet: false,
    });
    expectCommand('logs octo/app#12.1', {
      name: 'logs',
      job: { kind: 'number', repo: octo, number: '12.1' },
      lines: 40,
      follow: false,
      stop: false,
    });
    expectCommand('log 5501 --lines 200 --follow', {
      name: 'logs',
      job: { kind: 'id', id: 5501 },
      lines: 200,
      follow: true,
      stop: false,
    });
    expectCommand('logs 5501 --stop', {
      name: 'logs',
      job: { kind: 'id', id: 5501 },
      lines: 40,
      follow: false,
      stop: true,
    });
    const both = parseCommand('logs 5501 --follow --stop', base);
    assert.ok(
      !both.ok && both.error.kind === 'usage' && /`--follow` or `--stop`, not both/.test(both.error.message),
    );
  });

  it('reads env, settings, caches and keys', () => {
    expectCommand('env octo/app', { name: 'env', sub: 'list', repo: octo });
    expectCommand('env octo/app list', { name: 'env', sub: 'list', repo: octo });
    expectCommand('env list octo/app', { name: 'env', sub: 'list', repo: octo });
    expectCommand('env octo/app set DEPLOY_KEY --public', {
      name: 'env',
      sub: 'set',
      repo: octo,
      variable: 'DEPLOY_KEY',
      public: true,
      quiet: false,
    });
    expectCommand('env set octo/app _X1', {
      name: 'env',
      sub: 'set',
      repo: octo,
      variable: '_X1',
      public: false,
      quiet: false,
    });
    expectCommand('env octo/app UNSET old --quiet', {
      name: 'env',
      sub: 'unset',
      repo: octo,
      variable: 'old',
      quiet: true,
    });
    expectCommand('settings octo/app', { name: 'settings', repo: octo, quiet: false });
    expectCommand('caches octo/app', {
      name: 'caches',
      sub: 'list',
      repo: octo,
      branch: undefined,
      match: undefined,
    });
    expectCommand('cache octo/app delete --branch main --match node --quiet', {
      name: 'caches',
      sub: 'delete',
      repo: octo,
      branch: 'main',
      match: 'node',
      quiet: true,
    });
    expectCommand('pubkey octo/app', { name: 'pubkey', repo: octo, regenerate: false, quiet: false });
    expectCommand('pubkey octo/app --regenerate', {
      name: 'pubkey',
      repo: octo,
      regenerate: true,
      quiet: false,
    });
    expectCommand('encrypt octo/app', { name: 'encrypt', repo: octo });
    expectCommand('sshkey octo/app', { name: 'sshkey', sub: 'show', repo: octo });
    expectCommand('sshkey octo/app set', { name: 'sshkey', sub: 'set', repo: octo, quiet: false });
    expectCommand('sshkey delete octo/app --quiet', {
      name: 'sshkey',
      sub: 'delete',
      repo: octo,
      quiet: true,
    });
    expectCommand('lint', { name: 'lint' });
  });

  it('reads the channel commands', () => {
    expectCommand('use octo/app', { name: 'use', repo: octo, clear: false, quiet: false });
    expectCommand('use', { name: 'use', repo: undefined, clear: false, quiet: false }, inChannel);
    expectCommand('use --clear', { name: 'use', repo: undefined, clear: true, quiet: false });
    expectCommand('subscribe octo/app', {
      name: 'subscribe',
      target: { kind: 'repo', repo: octo },
      filters: {},
      quiet: false,
    });
    expectCommand(
      'subscribe octo/* branches:main,release/* events:push,cron only:changes exclude-authors:dependabot*,renovate* threads:off started:on',
      {
        name: 'subscribe',
        target: { kind: 'owner', owner: 'octo' },
        filters: {
          branches: ['main', 'release/*'],
          events: ['push', 'cron'],
          only: 'changes',
          excludeAuthors: ['dependabot*', 'renovate*'],
          threads: false,
          started: true,
        },
        quiet: false,
      },
    );
    expectCommand('unsubscribe octo/*', {
      name: 'unsubscribe',
      target: { kind: 'owner', owner: 'octo' },
      quiet: false,
    });
    expectCommand('subscriptions', { name: 'subscriptions' });
    expectCommand('notify me on', { name: 'notify', sub: 'me', state: 'on' });
    expectCommand('notify me OFF', { name: 'notify', sub: 'me', state: 'off' });
    expectCommand('notify off', { name: 'notify', sub: 'me', state: 'off' });
  });

  it('reads migrate with up to 50 repositories and owner/*', () => {
    expectCommand('migrate octo/app octo/* octo/site.github.io 4242', {
      name: 'migrate',
      targets: [
        { kind: 'repo', repo: octo },
        { kind: 'owner', owner: 'octo' },
        {
          kind: 'repo',
          repo: { kind: 'slug', owner: 'octo', name: 'site.github.io', slug: 'octo/site.github.io' },
        },
        { kind: 'repo', repo: { kind: 'id', id: 4242 } },
      ],
    });
    const fifty = Array.from({ length: 50 }, (_, i) => `octo/r${i}`).join(' ');
    const command = parsed(`migrate ${fifty}`);
    assert.ok(command.name === 'migrate' && command.targets.length === 50);
    const tooMany = parseCommand(`migrate ${fifty} octo/one-more`, base);
    assert.ok(!tooMany.ok && tooMany.error.kind === 'usage' && /At most 50/.test(tooMany.error.message));
  });
});
