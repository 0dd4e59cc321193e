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

describe("parseCommand: the channel's repository", () => {
  it('fills in a left-out repository and says so', () => {
    expectCommand(
      'builds',
      { name: 'builds', repo: lib, branch: undefined, pr: false, push: false, usedChannelRepo: true },
      inChannel,
    );
    expectCommand(
      'builds --pr',
      { name: 'builds', repo: lib, branch: undefined, pr: true, push: false, usedChannelRepo: true },
      inChannel,
    );
    expectCommand(
      'builds octo/app',
      { name: 'builds', repo: octo, branch: undefined, pr: false, push: false },
      inChannel,
    );
    expectCommand(
      'env unset FOO',
      { name: 'env', sub: 'unset', repo: lib, variable: 'FOO', quiet: false, usedChannelRepo: true },
      inChannel,
    );
    expectCommand(
      'env set FOO --public',
      {
        name: 'env',
        sub: 'set',
        repo: lib,
        variable: 'FOO',
        public: true,
        quiet: false,
        usedChannelRepo: true,
      },
      inChannel,
    );
    expectCommand('env', { name: 'env', sub: 'list', repo: lib, usedChannelRepo: true }, inChannel);
    expectCommand(
      'caches delete',
      {
        name: 'caches',
        sub: 'delete',
        repo: lib,
        branch: undefined,
        match: undefined,
        quiet: false,
        usedChannelRepo: true,
      },
      inChannel,
    );
    expectCommand(
      'subscribe only:failures',
      {
        name: 'subscribe',
        target: { kind: 'repo', repo: lib },
        filters: { only: 'failures' },
        quiet: false,
        usedChannelRepo: true,
      },
      inChannel,
    );
    expectCommand(
      'migrate',
      { name: 'migrate', targets: [{ kind: 'repo', repo: lib }], usedChannelRepo: true },
      inChannel,
    );
    expectCommand(
      'build #12',
      { name: 'build', build: { kind: 'number', repo: lib, number: '12' }, usedChannelRepo: true },
      inChannel,
    );
    expectCommand(
      'build @main',
      { name: 'build', build: { kind: 'branch', repo: lib, branch: 'main' }, usedChannelRepo: true },
      inChannel,
    );
    expectCommand(
      'logs 12.2',
      {
        name: 'logs',
        job: { kind: 'number', repo: lib, number: '12.2' },
        lines: 40,
        follow: false,
        stop: false,
        usedChannelRepo: true,
      },
      inChannel,
    );
    expectCommand(
      'cancel #12.2',
      {
        name: 'cancel',
        target: { type: 'job', ref: { kind: 'number', repo: lib, number: '12.2' } },
        quiet: false,
        usedChannelRepo: true,
      },
      inChannel,
    );
  });

  it('asks for the repository when the channel has none', () => {
    for (const text of ['builds', 'env unset FOO', 'subscribe only:failures', 'migrate', 'status']) {
      const result = parseCommand(text, base);
      assert.ok(!result.ok, text);
      assert.equal(result.error.kind, 'usage', text);
      assert.match(result.error.message, /\/ci use/, text);
      assert.ok(result.error.usage?.includes('&lt;repo'), text);
    }
    const build = parseCommand('build #12', base);
    assert.ok(
      !build.ok && build.error.kind === 'bad_reference' && /needs a repository/.test(build.error.message),
    );
  });

  it('does not take a word meant as the repository for the next argument', () => {
    const result = parseCommand('builds octo', inChannel);
    assert.ok(!result.ok && result.error.kind === 'bad_reference');
    const env = parseCommand('env unset owner/repo', inChannel);
    assert.ok(!env.ok && /is missing/.test(env.error.message));
  });
});

describe('parseCommand: Slack text quirks', () => {
  it('undoes Slack escaping and link markup', () => {
    expectCommand('repos "a &amp; b"', {
      name: 'repos',
      term: 'a & b',
      owner: undefined,
      member: undefined,
      active: false,
    });
    expectCommand('repos &lt;x&gt;', {
      name: 'repos',
      term: '<x>',
      owner: undefined,
      member: undefined,
      active: false,
    });
    expectCommand('build <https://app.travis-ci.com/github/octo/app/builds/55>', {
      name: 'build',
      build: { kind: 'url', deployment: 'com', repo: octo, id: 55 },
      deployment: 'com',
    });
    expectCommand(
      'build <https://app.travis-ci.com/github/octo/app/builds/55|app.travis-ci.com/github/octo/app/builds/55>',
      {
        name: 'build',
        build: { kind: 'url', deployment: 'com', repo: octo, id: 55 },
        deployment: 'com',
      },
    );
    expectCommand('logs <https://app.travis-ci.org/github/octo/app/jobs/9?x=1&amp;y=2|job>', {
      name: 'logs',
      job: { kind: 'url', deployment: 'org', repo: octo, id: 9 },
      lines: 40,
      follow: false,
      stop: false,
      deployment: 'org',
    });
    // Slack turns a repository name that looks like a domain into a link.
    expectCommand('repo octo/<http://site.github.io|site.github.io>', {
      name: 'repo',
      repo: { kind: 'slug', owner: 'octo', name: 'site.github.io', slug: 'octo/site.github.io' },
    });
    expectCommand('repos <#C123|general>', {
      name: 'repos',
      term: '#general',
      owner: undefined,
      member: undefined,
      active: false,
    });
  });

  it('reads smart quotes, long dashes and odd spaces', () => {
    expectCommand('repos “my api”', {
      name: 'repos',
      term: 'my api',
      owner: undefined,
      member: undefined,
      active: false,
    });
    expectCommand('repos ‘my api’', {
      name: 'repos',
      term: 'my api',
      owner: undefined,
      member: undefined,
      active: false,
    });
    expectCommand("repos don't", {
      name: 'repos',
      term: "don't",
      owner: undefined,
      member: undefined,
      active: false,
    });
    expectCommand('builds octo/app —branch main', {
      name: 'builds',
      repo: octo,
      branch: 'main',
      pr: false,
      push: false,
    });
    expectCommand('builds\u00a0octo/app\n–pr', {
      name: 'builds',
      repo: octo,
      branch: undefined,
      pr: true,
      push: false,
    });
    expectCommand('builds octo/\u200bapp', {
      name: 'builds',
      repo: octo,
      branch: undefined,
      pr: false,
      push: false,
    });
    expectCommand('caches octo/app --match="node modules"', {
      name: 'caches',
      sub: 'list',
      repo: octo,
      branch: undefined,
      match: 'node modules',
    });
    expectCommand("caches octo/app --match 'a b'", {
      name: 'caches',
      sub: 'list',
      repo: octo,
      branch: undefined,
      match: 'a b',
    });
  });

  it('takes deployment and help options before the command too', () => {
    expectCommand('--org builds octo/app', {
      name: 'builds',
      repo: octo,
      branch: undefined,
      pr: false,
      push: false,
      deployment: 'org',
    });
    expectCommand('—help logs', { name: 'help', topic: 'logs' });
    expectCommand('--help', { name: 'help', topic: undefined });
    const result = parseCommand('--branch main builds', base);
    assert.ok(!result.ok && result.error.kind === 'unknown_command');
  });

  it('keeps quoted words from being options, and -- ends options', () => {
    expectCommand('repos "--active"', {
      name: 'repos',
      term: '--active',
      owner: undefined,
      member: undefined,
      active: false,
    });
    expectCommand('repos -- --active', {
      name: 'repos',
      term: '--active',
      owner: undefined,
      member: undefined,
      active: false,
    });
  });

  it('takes a deployment from a pasted link and refuses a contradicting option', () => {
    expectCommand('restart https://app.travis-ci.org/github/octo/app/jobs/9 --org', {
      name: 'restart',
      target: { type: 'job', ref: { kind: 'url', deployment: 'org', repo: octo, id: 9 } },
      quiet: false,
      deployment: 'org',
    });
    const result = parseCommand('restart https://app.travis-ci.org/github/octo/app/jobs/9 --com', base);
    assert.ok(!result.ok && /different deployments/.test(result.error.message));
  });
});
