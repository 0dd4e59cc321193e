import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  COMMAND_NAMES,
  errorText,
  MAX_COMMAND_TEXT,
  parseCommand,
} from '../../../src/slack/commands/index.js';
import type { RepoRef } from '../../../src/slack/refs.js';
import { anyText } from '../arbitraries.js';

const channelRepo: RepoRef = { kind: 'slug', owner: 'octo', name: 'app', slug: 'octo/app' };
const contexts = [
  {},
  { channelRepo, webUrls: { com: 'https://app.travis-ci.com', org: 'https://app.travis-ci.org' } },
];

/** Words that reach deep into the parser: commands, options, references, quotes, markup. */
const pieces = fc.oneof(
  fc.constantFrom(...COMMAND_NAMES, 'show', 'history', 'set', 'unset', 'delete', 'me', 'on', 'list'),
  fc.constantFrom(
    '--branch',
    '--limit',
    '--lines=',
    '--pr',
    '--quiet',
    '--org',
    '--com',
    '—branch',
    '-h',
    '--',
    '--x=',
  ),
  fc.constantFrom(
    'octo/app',
    'octo/*',
    '#12',
    '#12.3',
    '@main',
    'a/b/c',
    '0',
    '9007199254740993',
    'only:failures',
  ),
  fc.constantFrom('"', "'", '“', '”', '‘', '’', '<', '>', '&amp;', '&lt;', '|', '<@U1>', '<!channel>', '`'),
  fc.constantFrom(
    '<https://app.travis-ci.com/github/octo/app/builds/5|x>',
    'https://evil.example/a/b/builds/1',
  ),
  fc.string({ unit: 'grapheme', maxLength: 12 }),
  anyText(12),
  fc.integer().map(String),
);
const separators = fc.constantFrom(' ', '  ', '\n', '\t', '\u00a0', '');

const commandLike = fc
  .array(fc.tuple(pieces, separators), { maxLength: 20 })
  .map((parts) => parts.map(([p, s]) => p + s).join(''));

function check(text: string) {
  for (const context of contexts) {
    const result = parseCommand(text, context);
    if (result.ok) {
      assert.ok((COMMAND_NAMES as string[]).includes(result.command.name));
    } else {
      assert.ok(result.error.message.trim().length > 0, JSON.stringify(text));
      const shown = errorText(result.error);
      assert.ok(!/[<>]/.test(shown), `${JSON.stringify(text)} → ${shown}`);
    }
  }
}

describe('parseCommand fuzz', () => {
  it('always answers, with safe text, for command-like input', () => {
    fc.assert(fc.property(commandLike, check), { numRuns: 1500 });
  });

  it('always answers for arbitrary unicode, control characters and quotes', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          anyText(300),
          fc.string({
            unit: fc.constantFrom('"', "'", '“', '‘', ' ', 'a', '\u0000', '\u001b', '\r'),
            maxLength: 300,
          }),
        ),
        check,
      ),
      { numRuns: 1500 },
    );
  });

  it('treats a missing text as a request for help', () => {
    for (const missing of [undefined, null, 42]) {
      const result = parseCommand(missing as unknown as string);
      assert.ok(result.ok && result.command.name === 'help');
    }
  });

  it('answers quickly for long input', () => {
    const started = performance.now();
    for (const text of [
      'builds '.repeat(1000).slice(0, MAX_COMMAND_TEXT),
      `migrate ${'octo/app '.repeat(800)}`.slice(0, MAX_COMMAND_TEXT),
      '"'.repeat(MAX_COMMAND_TEXT),
      `repos ${'x'.repeat(MAX_COMMAND_TEXT - 6)}`,
      `${'y'.repeat(MAX_COMMAND_TEXT)}`,
      '<'.repeat(MAX_COMMAND_TEXT),
      'x'.repeat(MAX_COMMAND_TEXT * 10),
    ]) {
      check(text);
    }
    assert.ok(performance.now() - started < 1000);
  });
});
