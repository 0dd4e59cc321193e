import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { escapeMrkdwn } from '../../../src/slack/text/escape.js';
import { truncate, truncateLines } from '../../../src/slack/text/truncate.js';

describe('truncate', () => {
  it('keeps text that fits', () => {
    assert.equal(truncate('hello', 5), 'hello');
    assert.equal(truncate('', 0), '');
  });

  it('cuts the end or the start with an ellipsis', () => {
    assert.equal(truncate('hello world', 6), 'hello…');
    assert.equal(truncate('hello world', 6, { keep: 'end' }), '…world');
    assert.equal(truncate('hello', 1), '…');
    assert.equal(truncate('hello', 0), '');
    assert.equal(truncate('hello', -3), '');
  });

  it('never splits a surrogate pair', () => {
    assert.equal(truncate('ab😀cd', 4), 'ab…');
    assert.equal(truncate('ab😀cd', 4, { keep: 'end' }), '…cd');
    assert.equal(truncate('ab😀cd', 5), 'ab😀…');
  });

  it('never splits an entity', () => {
    const escaped = escapeMrkdwn('a<b&c>d');
    assert.equal(escaped, 'a&lt;b&amp;c&gt;d');
    assert.equal(truncate(escaped, 4), 'a…');
    assert.equal(truncate(escaped, 6), 'a&lt;…');
    assert.equal(truncate(escaped, 4, { keep: 'end' }), '…d');
    assert.equal(truncate(escaped, 6, { keep: 'end' }), '…&gt;d');
  });

  it('stays within the limit and keeps entities and pairs whole', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme', maxLength: 200 }),
        fc.integer({ min: -2, max: 250 }),
        fc.constantFrom<'start' | 'end'>('start', 'end'),
        (raw, max, keep) => {
          const text = escapeMrkdwn(raw);
          const out = truncate(text, max, { keep });
          assert.ok(out.length <= Math.max(0, max));
          if (text.length <= max) assert.equal(out, text);
          // No lone surrogates and no broken entity appear.
          assert.ok(!/[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/.test(out));
          assert.ok(!/&(?!amp;|lt;|gt;)/.test(out));
          const body = out.replace('…', '');
          assert.ok(!/^(amp;|lt;|gt;|mp;|p;|t;)/.test(body) || keep === 'start');
        },
      ),
    );
  });
});

describe('truncateLines', () => {
  it('keeps the first or last lines and counts the rest', () => {
    assert.deepEqual(truncateLines('a\nb\nc\nd\n', 2), { text: 'a\nb', omitted: 2 });
    assert.deepEqual(truncateLines('a\nb\nc\nd', 3, { keep: 'end' }), { text: 'b\nc\nd', omitted: 1 });
    assert.deepEqual(truncateLines('a\nb', 5), { text: 'a\nb', omitted: 0 });
    assert.deepEqual(truncateLines('a\nb', 0), { text: '', omitted: 2 });
  });
});
