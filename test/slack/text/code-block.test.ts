import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  breakFences,
  codeBlock,
  FENCE_BREAKER,
  MIN_CODE_BLOCK_CHARS,
} from '../../../src/slack/text/code-block.js';
import { MAX_SECTION_TEXT } from '../../../src/slack/text/limits.js';

const fences = (s: string) => s.split('```').length - 1;

describe('codeBlock', () => {
  it('wraps text that fits, escaped', () => {
    assert.equal(
      codeBlock('npm test\n<!channel> & done\n', 100),
      '```\nnpm test\n&lt;!channel&gt; &amp; done\n```',
    );
    assert.equal(codeBlock('', 100), '```\n \n```');
  });

  it('keeps a ``` in the text from closing the block', () => {
    const out = codeBlock('before\n```\nafter ```` end', 200);
    assert.equal(fences(out), 2);
    assert.ok(out.startsWith('```\n') && out.endsWith('\n```'));
    // It still reads the same once the invisible characters are removed.
    assert.equal(out.replaceAll(FENCE_BREAKER, ''), '```\nbefore\n```\nafter ```` end\n```');
    assert.equal(breakFences('``'), '``');
    assert.equal(breakFences('```'), `\`${FENCE_BREAKER}\`${FENCE_BREAKER}\``);
  });

  it('keeps the end of a long log and says how many lines are hidden', () => {
    const log = Array.from({ length: 2000 }, (_, i) => `line ${i + 1}`).join('\n');
    const out = codeBlock(log, 300);
    assert.ok(out.length <= 300);
    const lines = out.slice(4, -4).split('\n');
    assert.match(lines[0] ?? '', /^… 1,9\d\d earlier lines not shown$/);
    assert.equal(lines.at(-1), 'line 2000');
    const hidden = Number((lines[0] ?? '').replace(/\D/g, ''));
    assert.equal(hidden + lines.length - 1, 2000);
    assert.equal(lines[1], `line ${hidden + 1}`);
  });

  it('cuts a single huge line from its start', () => {
    const out = codeBlock(`${'x'.repeat(5000)}END`, 100);
    assert.ok(out.length <= 100);
    assert.ok(out.endsWith('xEND\n```'));
    assert.ok(out.startsWith('```\n…'));
    const withAbove = codeBlock(`first\n${'y'.repeat(5000)}END`, 100);
    assert.match(withAbove, /^```\n… 1 earlier line not shown\n…y+END\n```$/);
  });

  it('refuses a size that cannot hold a block', () => {
    assert.throws(() => codeBlock('x', MIN_CODE_BLOCK_CHARS - 1), RangeError);
    assert.equal(codeBlock('xyz', MIN_CODE_BLOCK_CHARS), '```\n…\n```');
  });

  it('always has exactly two fences and fits', () => {
    const text = fc.array(
      fc.oneof(
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom('```', '`', '``', '<!here>', '&', '\n', '😀'),
      ),
      { maxLength: 60 },
    );
    fc.assert(
      fc.property(text, fc.integer({ min: MIN_CODE_BLOCK_CHARS, max: 400 }), (parts, max) => {
        const out = codeBlock(parts.join(''), max);
        assert.ok(out.length <= max, `${out.length} > ${max}`);
        assert.equal(fences(out), 2, out);
        assert.ok(out.startsWith('```\n') && out.endsWith('\n```'));
        assert.ok(!/[<>]/.test(out));
      }),
      { numRuns: 500 },
    );
  });

  it('shows a true end of the text and counts the hidden lines right', () => {
    const asTyped = (s: string) =>
      s.replaceAll(FENCE_BREAKER, '').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&amp;/g, '&');
    const text = fc
      .array(fc.constantFrom('a', 'b', 'c', ' ', '\n', '\n', '`', '<', '&'), { maxLength: 400 })
      .map((chars) => chars.join('').replace(/\n+$/, ''));
    fc.assert(
      fc.property(text, fc.integer({ min: MIN_CODE_BLOCK_CHARS, max: 120 }), (raw, max) => {
        const body = codeBlock(raw, max).slice(4, -4);
        const rawLines = raw.split('\n');
        const lines = body.split('\n');
        const note = /^… ([\d,]+) earlier lines? not shown$/.exec(lines[0] ?? '');
        const hidden = note ? Number((note[1] ?? '').replace(/,/g, '')) : 0;
        const kept = (note ? lines.slice(1) : lines).map(asTyped);
        if (raw === '') return assert.equal(body, ' ');
        if (!note && asTyped(body) !== raw) {
          // Too little room for the note: the end of the last line, after an ellipsis.
          assert.equal(lines.length, 1);
          assert.ok(body.startsWith('…') && raw.endsWith(asTyped(body).slice(1)), body);
          return;
        }
        assert.equal(hidden + kept.length, rawLines.length, body);
        for (const [i, line] of kept.entries()) {
          const original = rawLines[hidden + i] ?? '';
          if (line.startsWith('…') && i === 0 && line !== original)
            assert.ok(original.endsWith(line.slice(1)));
          else assert.equal(line, original);
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('fits a 20 MB log into a section quickly', () => {
    const log = 'a fairly ordinary log line with `code` and <tags>\n'.repeat(400_000);
    const started = performance.now();
    const out = codeBlock(log, MAX_SECTION_TEXT);
    assert.ok(out.length <= MAX_SECTION_TEXT);
    assert.ok(performance.now() - started < 2000);
  });
});
