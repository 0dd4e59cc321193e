import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { tokenize, unslack } from '../../../src/slack/commands/tokenize.js';

const words = (text: string) => {
  const result = tokenize(text);
  assert.ok(result.ok, text);
  return result.tokens.map((t) => t.text);
};

describe('unslack', () => {
  it('decodes entities once', () => {
    assert.equal(unslack('a &amp; b &lt;c&gt; &amp;lt;'), 'a & b <c> &lt;');
  });

  it('turns markup back into what was typed', () => {
    assert.equal(unslack('<https://x.example/a?b=1&amp;c=2>'), 'https://x.example/a?b=1&c=2');
    assert.equal(unslack('<http://site.io|site.io>'), 'site.io');
    assert.equal(unslack('<mailto:a@b.io|a@b.io>'), 'a@b.io');
    assert.equal(unslack('<https://x.example/long|custom title>'), 'https://x.example/long');
    assert.equal(unslack('<#C123|general> <#C456>'), '#general #C456');
    assert.equal(unslack('<@U123> <@U456|alice>'), '@U123 @alice');
    assert.equal(unslack('<!here> <!channel> <!subteam^S1|@devs>'), '@here @channel @devs');
  });
});

describe('tokenize', () => {
  it('splits on any whitespace', () => {
    assert.deepEqual(words('  a\tb\n c\u00a0d\u2003e  '), ['a', 'b', 'c', 'd', 'e']);
    assert.deepEqual(words(''), []);
  });

  it('groups quoted words, straight or curly', () => {
    assert.deepEqual(words('"a b" \'c d\' “e f” ‘g h’ ”i j“'), ['a b', 'c d', 'e f', 'g h', 'i j']);
    assert.deepEqual(words('x"y z"w'), ['xy zw']);
    assert.deepEqual(words('--match="a b"'), ['--match=a b']);
    assert.deepEqual(words("--match='a b'"), ['--match=a b']);
    assert.deepEqual(words('"" x'), ['', 'x']);
  });

  it('leaves apostrophes inside words alone', () => {
    assert.deepEqual(words("don't it’s"), ["don't", 'it’s']);
  });

  it('marks words that start quoted', () => {
    const result = tokenize('"--x" --y=" z"');
    assert.ok(result.ok);
    assert.deepEqual(
      result.tokens.map((t) => t.quoted),
      [true, false],
    );
  });

  it('refuses an unclosed quote', () => {
    const result = tokenize('a "b c');
    assert.ok(!result.ok && /not closed/.test(result.reason));
  });

  it('drops invisible characters', () => {
    assert.deepEqual(words('a\u200bb \ufeffc'), ['ab', 'c']);
  });
});
