import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cleanLog, LiveTail, LogParts, splitLines } from '../../../src/ci/log-text/index.js';
import { arrivalOrder, cutFractions, type Part, partsOf, rawLog } from './arbitraries.js';
import { LOG_FIXTURES, rawFixture } from './fixtures.js';

function lastLines(text: string, count: number, maxLineLength?: number): string[] {
  return splitLines(cleanLog(text, { maxLineLength })).slice(-count);
}

/** A small seeded generator, so that the big scenarios are the same on every run. */
function random(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('LiveTail', () => {
  it('shows the last lines, the line being written included, as parts arrive in order', () => {
    const tail = new LiveTail({ maxLines: 3 });
    assert.deepEqual(tail.lines(), []);
    tail.add({ number: 0, content: 'travis_fold:start:install\r\x1b[0K$ npm ci\r\n\x1b[1G⠙' });
    assert.deepEqual(tail.lines(), ['$ npm ci', '⠙']);
    tail.add({ number: 1, content: '\x1b[1G\x1b[0Kadded 3 packages\r\none\r\ntwo\r\nDownloading 10%' });
    assert.deepEqual(tail.lines(), ['one', 'two', 'Downloading 10%']);
    tail.add({ number: 2, content: '\rDownloading 100%\r\n' });
    assert.deepEqual(tail.lines(), ['one', 'two', 'Downloading 100%']);
    assert.equal(tail.highestContiguous, 2);
  });

  it('holds a part that came early until the gap before it fills, and ignores duplicates', () => {
    const tail = new LiveTail();
    assert.equal(tail.add({ number: 0, content: 'zero\n' }), true);
    assert.equal(tail.add({ number: 2, content: 'two\n' }), true);
    assert.equal(tail.add({ number: 2, content: 'two (again)\n' }), false);
    assert.equal(tail.add({ number: 4, content: 'four\n', final: true }), true);
    assert.deepEqual(tail.lines(), ['zero']);
    assert.deepEqual(tail.missing, [1, 3]);
    assert.deepEqual([tail.highestContiguous, tail.finalSeen, tail.done], [0, true, false]);
    assert.equal(tail.add({ number: 1, content: 'one\n' }), true);
    assert.deepEqual(tail.lines(), ['zero', 'one', 'two']);
    assert.equal(tail.add({ number: 0, content: 'zero\n' }), false);
    assert.equal(tail.add({ number: 3, content: 'three\n' }), true);
    assert.deepEqual(tail.lines(), ['zero', 'one', 'two', 'three', 'four']);
    assert.deepEqual([tail.highestContiguous, tail.done, tail.missing], [4, true, []]);
    assert.equal(tail.add({ number: 5, content: 'after the end\n' }), false);
  });

  it('starts at a configurable part number and checks its options', () => {
    const tail = new LiveTail({ firstPart: 57 });
    assert.equal(tail.highestContiguous, 56);
    assert.equal(tail.add({ number: 3, content: 'old\n' }), false);
    assert.equal(tail.add({ number: 57, content: 'live\n' }), true);
    assert.deepEqual(tail.lines(), ['live']);
    assert.throws(() => new LiveTail({ maxLines: 0 }), RangeError);
    assert.throws(() => new LiveTail({ firstPart: -2 }), RangeError);
    assert.throws(() => new LiveTail({ maxLineLength: 0 }), RangeError);
  });

  it('gives up on a part that never comes once too many parts wait for it, and moves on', () => {
    const tail = new LiveTail({ maxHeldParts: 3 });
    for (const number of [1, 2, 3]) tail.add({ number, content: `part ${number}\n` });
    assert.deepEqual([tail.lines(), tail.missing, tail.skippedParts], [[], [0], 0]);
    tail.add({ number: 5, content: 'part 5\n' });
    assert.deepEqual(tail.lines(), ['part 1', 'part 2', 'part 3']);
    assert.deepEqual([tail.highestContiguous, tail.missing, tail.skippedParts], [3, [4], 1]);
    assert.equal(tail.add({ number: 0, content: 'too late\n' }), false);
  });

  it('bounds the characters it holds as well', () => {
    const tail = new LiveTail({ maxHeldChars: 10 });
    tail.add({ number: 1, content: '12345\n' });
    assert.equal(tail.skippedParts, 0);
    tail.add({ number: 3, content: '67890\n' });
    assert.deepEqual([tail.lines(), tail.skippedParts, tail.highestContiguous], [['12345'], 1, 1]);
  });

  it('lists at most maxHeldParts missing numbers, whatever number a part carries', () => {
    const tail = new LiveTail({ maxHeldParts: 5 });
    tail.add({ number: 1_000_000_000, content: 'far away' });
    assert.deepEqual(tail.missing, [0, 1, 2, 3, 4]);
  });

  it('matches the hand-written fixtures whatever order their parts come in', () => {
    for (const [index, name] of LOG_FIXTURES.entries()) {
      const raw = rawFixture(name);
      const next = random(index + 1);
      const parts = partsOf(raw, Array.from({ length: 60 }, next));
      const arrivals = parts
        .map((part) => ({ part, key: next() }))
        .sort((a, b) => a.key - b.key)
        .map(({ part }) => part);
      const tail = new LiveTail({ maxLines: 8 });
      for (const part of arrivals) tail.add(part);
      assert.deepEqual(tail.lines(), lastLines(raw, 8, 4096), name);
      assert.equal(tail.done, true);
    }
  });

  it('after every part shows the tail of the contiguous text, and at the end that of the whole log', () => {
    const setup = fc.tuple(rawLog, cutFractions).chain(([text, cuts]) => {
      const parts = partsOf(text, cuts);
      return fc.tuple(
        fc.constant(text),
        arrivalOrder(parts),
        fc.integer({ min: 1, max: 6 }),
        fc.constantFrom(3, 4096),
      );
    });
    fc.assert(
      fc.property(setup, ([text, arrivals, maxLines, maxLineLength]) => {
        const tail = new LiveTail({ maxLines, maxLineLength });
        const oracle = new LogParts();
        for (const part of arrivals) {
          assert.equal(tail.add(part), oracle.add(part));
          assert.deepEqual(tail.lines(), lastLines(oracle.contiguousText(), maxLines, maxLineLength));
          assert.deepEqual(tail.missing, oracle.complete ? [] : oracle.missing());
        }
        assert.deepEqual(tail.lines(), lastLines(text, maxLines, maxLineLength));
        assert.equal(tail.done, true);
        assert.equal(tail.skippedParts, 0);
      }),
      { numRuns: 200 },
    );
  });

  describe('with 2,000 parts of a long log', () => {
    // Many real-looking sections: the fixtures one after another, each with its own numbers.
    const sections = Array.from({ length: 40 }, (_, i) =>
      LOG_FIXTURES.map((name) => rawFixture(name).replaceAll('widget', `widget-${i}`)).join('\n'),
    );
    const text = `${sections.join('\n')}\nDone. Your build exited with 0.\n`;
    const next = random(2024);
    const parts = partsOf(text, Array.from({ length: 1999 }, next));
    const expected = lastLines(text, 40, 4096);

    function withDuplicates(order: Part[]): Part[] {
      const arrivals = [...order];
      for (let i = 0; i < 400; i += 1) {
        const copy = parts[Math.floor(next() * parts.length)];
        if (copy) arrivals.splice(Math.floor(next() * arrivals.length), 0, copy);
      }
      return arrivals;
    }

    it('gives exactly the right tail when parts come late by up to 50 places', () => {
      const late = parts
        .map((part, i) => ({ part, at: i + next() * 50 }))
        .sort((a, b) => a.at - b.at)
        .map(({ part }) => part);
      const tail = new LiveTail();
      const accepted = withDuplicates(late).filter((part) => tail.add(part)).length;
      assert.equal(parts.length, 2000);
      assert.equal(accepted, 2000);
      assert.deepEqual(tail.lines(), expected);
      assert.deepEqual(
        [tail.done, tail.missing, tail.skippedParts, tail.highestContiguous],
        [true, [], 0, 1999],
      );
    });

    it('gives exactly the right tail for a full shuffle when it may hold them all', () => {
      const shuffled = parts
        .map((part) => ({ part, key: next() }))
        .sort((a, b) => a.key - b.key)
        .map(({ part }) => part);
      const tail = new LiveTail({ maxHeldParts: 2000, maxHeldChars: text.length });
      for (const part of withDuplicates(shuffled)) tail.add(part);
      assert.deepEqual(tail.lines(), expected);
      assert.deepEqual([tail.done, tail.skippedParts], [true, 0]);
    });
  });
});
