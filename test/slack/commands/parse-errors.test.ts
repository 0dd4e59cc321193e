import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  errorText,
  MAX_COMMAND_TEXT,
  type ParseError,
  type ParseErrorKind,
  parseCommand,
} from '../../../src/slack/commands/index.js';

const WEB = { com: 'https://app.travis-ci.com' };

function failure(text: string, kind: ParseErrorKind): ParseError {
  const result = parseCommand(text, { webUrls: WEB });
  if (result.ok) assert.fail(`${JSON.stringify(text)} parsed as ${JSON.stringify(result.command)}`);
  assert.equal(result.error.kind, kind, `${text}: ${result.error.message}`);
  assert.ok(result.error.message.length > 0);
  return result.error;
}

describe('parseCommand: unknown commands', () => {
  it('suggests the closest command and points to help', () => {
    const error = failure('biulds octo/app', 'unknown_command');
    assert.equal(error.suggestion, 'builds');
    assert.match(error.message, /Did you mean `\/ci builds`\?/);
    assert.match(error.message, /`\/ci help`/);
    assert.equal(failure('restrat', 'unknown_command').suggestion, 'restart');
    assert.equal(failure('histroy', 'unknown_command').suggestion, 'history');
    assert.equal(failure('subscri', 'unknown_command').suggestion, 'subscribe');
    assert.equal(failure('xyzzy', 'unknown_command').suggestion, undefined);
    assert.equal(failure('help xyzzy', 'unknown_command').command, 'help');
    assert.equal(failure('help biuld', 'unknown_command').suggestion, 'build');
  });

  it('escapes what was typed', () => {
    const error = failure('<!channel> hi', 'unknown_command');
    assert.ok(!/[<>]/.test(error.message), error.message);
    assert.match(error.message, /@\u2060channel/);
  });
});

describe('parseCommand: usage mistakes answer with the usage line', () => {
  const cases: [text: string, kind: ParseErrorKind, message: RegExp][] = [
    ['build', 'usage', /&lt;build&gt;` is missing/],
    ['logs', 'usage', /&lt;job&gt;` is missing/],
    ['restart', 'usage', /is missing/],
    ['builds octo/app extra', 'usage', /one word too many/],
    ['builds octo/app --pr --push', 'usage', /`--pr` or `--push`, not both/],
    ['builds octo/app --bogus', 'usage', /`--bogus` is not an option/],
    ['builds octo/app --brnch main', 'usage', /Did you mean `--branch`/],
    ['builds octo/app --ogr', 'usage', /Did you mean `--org`/],
    ['builds octo/app --branch', 'usage', /needs a value/],
    ['builds octo/app --branch --pr', 'usage', /needs a value/],
    ['builds octo/app --branch "a b"', 'usage', /not a valid branch name/],
    ['builds octo/app --pr=yes', 'usage', /takes no value/],
    ['builds octo/app -x', 'usage', /two dashes/],
    ['builds octo/app --branch a --branch b', 'usage', /given twice/],
    ['builds octo/app --com --org', 'usage', /Choose one deployment/],
    ['builds octo/app --com=1', 'usage', /takes no value/],
    ['requests octo/app --limit 0', 'usage', /from 1 to 100/],
    ['requests octo/app --limit 101', 'usage', /from 1 to 100/],
    ['requests octo/app --limit ten', 'usage', /whole number/],
    ['requests octo/app --limit -5', 'usage', /whole number from 1 to 100, not `-5`/],
    ['logs 1 --lines 100000000000', 'usage', /from 1 to 500/],
    ['jobs', 'usage', /exactly one of `--state`, `--queue`/],
    ['jobs --state started --queue q', 'usage', /exactly one/],
    ['jobs --state sleeping', 'usage', /must be one of created/],
    ['repos --owner "bad owner"', 'usage', /not a valid GitHub login/],
    ['env octo/app set', 'usage', /&lt;NAME&gt;` is missing/],
    ['env octo/app set 1BAD', 'usage', /not a valid variable name/],
    ['env octo/app set FOO secret-value', 'usage', /one word too many/],
    ['env octo/app list --public', 'usage', /only works with `\/ci env set`/],
    ['caches octo/app --quiet', 'usage', /only works with `\/ci caches delete`/],
    ['repos --quiet', 'usage', /not an option/],
    ['notify me', 'usage', /on\|off` is missing/],
    ['notify me maybe', 'usage', /not one of on, off/],
    ['login moon', 'usage', /not a deployment/],
    ['login org --com', 'usage', /different deployments/],
    ['use octo/app --clear', 'usage', /not both/],
    ['subscribe octo/app only:sometimes', 'usage', /only:failures or only:changes/],
    ['subscribe octo/app events:push,deploy', 'usage', /not a build event/],
    ['subscribe octo/app threads:maybe', 'usage', /threads:on or threads:off/],
    ['subscribe octo/app color:red', 'usage', /not a filter/],
    ['subscribe octo/app only:failures only:changes', 'usage', /given twice/],
    ['subscribe octo/app branches:', 'usage', /comma-separated/],
    ['subscribe octo/app loose', 'usage', /key:value/],
    ['repos "unclosed', 'usage', /quote is not closed/],
    ['repos ""', 'usage', /empty/],
  ];
  for (const [text, kind, message] of cases) {
    it(text, () => {
      const error = failure(text, kind);
      assert.match(error.message, message);
      if (!/quote is not closed/.test(error.message)) {
        assert.ok(error.command, 'names the command');
        assert.ok(error.usage?.startsWith('`/ci '), `usage: ${error.usage}`);
      }
      assert.ok(!/[<>]/.test(errorText(error)), errorText(error));
    });
  }
});

describe('parseCommand: bad references', () => {
  const cases: [text: string, message: RegExp][] = [
    ['builds octo', /not a repository/],
    ['builds oc.to/app', /not a valid owner name/],
    ['builds a/b/c', /not a repository/],
    ['repo 0', /not a repository id/],
    ['repo 99999999999999999999', /not a repository id/],
    ['build octo/app', /is a repository, not a build/],
    ['build #abc', /needs a repository|not a build/],
    ['build octo/app#abc', /not a build number/],
    ['build octo/app@', /branch name is missing/],
    ['build octo/app#1.2', /job number/],
    ['build https://evil.example/github/octo/app/builds/1', /not a CI deployment this app knows/],
    ['logs octo/app#12', /build number/],
    ['logs https://app.travis-ci.com/github/octo/app/builds/1', /link to a build, not to a job/],
    ['restart octo', /not a build/],
    ['migrate octo/app oc.to/x', /not a valid owner name/],
    ['subscribe oc.to/*', /not a valid owner name/],
  ];
  for (const [text, message] of cases) {
    it(text, () => {
      const error = failure(text, 'bad_reference');
      assert.match(error.message, message);
      assert.ok(error.usage, 'comes with the usage line');
    });
  }
});

describe('parseCommand: limits', () => {
  it('refuses overlong text at once', () => {
    failure('repos '.padEnd(MAX_COMMAND_TEXT + 1, 'x'), 'too_long');
  });
});

describe('errorText', () => {
  it('puts message, usage and a pointer to the help together', () => {
    const error = failure('builds octo/app --pr --push', 'usage');
    const text = errorText(error);
    assert.match(text, /not both\.\nUsage:\n`\/ci builds &lt;repo&gt;/);
    assert.match(text, /More: `\/ci help builds`$/);
  });
});
