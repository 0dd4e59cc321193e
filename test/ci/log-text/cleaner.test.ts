import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cleanLog, LogCleaner, splitLines } from '../../../src/ci/log-text/index.js';
import { cutFractions, logFragment, rawLog, splitAt } from './arbitraries.js';
import { expectedFixture, LOG_FIXTURES, rawFixtureBytes } from './fixtures.js';

function cleanChunks(chunks: (string | Uint8Array)[], options?: { maxLineLength?: number }): string[] {
  const cleaner = new LogCleaner(options);
  const lines = chunks.flatMap((chunk) => cleaner.push(chunk));
  return [...lines, ...cleaner.flush()];
}

describe('LogCleaner', () => {
  it('gives complete lines as they end and the last partial line on flush', () => {
    const cleaner = new LogCleaner();
    assert.deepEqual(cleaner.push('\x1b[32mfirst'), []);
    assert.equal(cleaner.pending(), 'first');
    assert.deepEqual(cleaner.push(' line\x1b[0m\r\nsecond\nthi'), ['first line', 'second']);
    assert.deepEqual(cleaner.push('rd 10%\r'), []);
    assert.equal(cleaner.pending(), 'third 10%');
    assert.deepEqual(cleaner.flush(), ['third 10%']);
    assert.deepEqual(cleaner.flush(), []);
  });

  it('joins an escape sequence, a marker and a UTF-8 character split across chunks', () => {
    const raw = Buffer.from('\x1b[31mred\x1b[0m travis_fold:start:x\r\x1b[0K😀 ok\n');
    const oneByteAtATime = [...raw].map((byte) => Uint8Array.of(byte));
    assert.deepEqual(cleanChunks(oneByteAtATime), ['red 😀 ok']);
  });

  it('ends a waiting UTF-8 character as U+FFFD when a string chunk comes next', () => {
    const euro = Buffer.from('€');
    assert.deepEqual(cleanChunks([euro.subarray(0, 2), 'x\n']), ['\ufffdx']);
  });

  for (const name of LOG_FIXTURES) {
    it(`cleans ${name}.rawlog fed in 7-byte chunks like the whole file`, () => {
      const bytes = rawFixtureBytes(name);
      const chunks: Uint8Array[] = [];
      for (let start = 0; start < bytes.length; start += 7) chunks.push(bytes.subarray(start, start + 7));
      assert.deepEqual(cleanChunks(chunks), splitLines(expectedFixture(name)));
    });
  }

  it('on any chunking of a string equals cleanLog on the whole', () => {
    fc.assert(
      fc.property(rawLog, cutFractions, (raw, cuts) => {
        assert.deepEqual(cleanChunks(splitAt(raw, cuts)), splitLines(cleanLog(raw)));
      }),
      { numRuns: 400 },
    );
  });

  it('on bytes split anywhere, even inside a UTF-8 character, equals cleanLog on the whole', () => {
    fc.assert(
      fc.property(rawLog, cutFractions, (raw, cuts) => {
        const bytes = Buffer.from(raw);
        assert.deepEqual(cleanChunks(splitAt(bytes, cuts)), splitLines(cleanLog(bytes.toString())));
      }),
      { numRuns: 400 },
    );
  });

  it('with a small line cap equals cleanLog with the same cap', () => {
    fc.assert(
      fc.property(rawLog, cutFractions, fc.integer({ min: 1, max: 12 }), (raw, cuts, maxLineLength) => {
        assert.deepEqual(
          cleanChunks(splitAt(raw, cuts), { maxLineLength }),
          splitLines(cleanLog(raw, { maxLineLength })),
        );
      }),
      { numRuns: 300 },
    );
  });

  it('cleans lines far longer than its buffers exactly as cleanLog does', () => {
    // One raw line of 40-120 thousand characters (its pieces repeated), fed in chunks of random
    // size: this goes through the in-line folding that keeps memory bounded.
    const longLine = fc
      .tuple(
        fc.array(logFragment, { minLength: 1, maxLength: 12 }),
        fc.integer({ min: 40_000, max: 120_000 }),
      )
      .map(([pieces, length]) => {
        const unit = pieces.join('').replaceAll('\n', ' ') || 'x';
        return `start ${unit.repeat(Math.ceil(length / unit.length))} end\nafter\n`;
      });
    fc.assert(
      fc.property(
        longLine,
        fc.array(fc.integer({ min: 1, max: 50_000 }), { minLength: 1, maxLength: 8 }),
        (raw, sizes) => {
          const chunks: string[] = [];
          for (let start = 0, i = 0; start < raw.length; i += 1) {
            const size = sizes[i % sizes.length] ?? 1;
            chunks.push(raw.slice(start, start + size));
            start += size;
          }
          for (const maxLineLength of [100, 64 * 1024]) {
            assert.deepEqual(
              cleanChunks(chunks, { maxLineLength }),
              splitLines(cleanLog(raw, { maxLineLength })),
            );
          }
        },
      ),
      { numRuns: 25 },
    );
  });

  it('keeps a line of unbounded length to its last characters', () => {
    const cleaner = new LogCleaner({ maxLineLength: 1000 });
    for (let i = 0; i < 200; i += 1) cleaner.push(`${String(i).padStart(4, '0')} ${'.'.repeat(5000)}`);
    const [line] = cleaner.push('|\n');
    assert.equal(line?.length, 1000);
    assert.ok(line?.endsWith('.|'));
  });
});
