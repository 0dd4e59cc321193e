import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import { cleanLog, LogParts, splitLines } from '../../../src/ci/log-text/index.js';
import { arrivalOrder, cutFractions, partsOf, rawLog } from './arbitraries.js';
import { travisFixture } from './fixtures.js';

const partsAnswer = z.object({
  log_parts: z.array(z.object({ number: z.number(), content: z.string(), final: z.boolean() })),
});

describe('LogParts', () => {
  it('orders parts by number, ignores duplicates and lists the gaps', () => {
    const log = new LogParts();
    assert.equal(log.add({ number: 2, content: 'c' }), true);
    assert.equal(log.add({ number: 0, content: 'a' }), true);
    assert.equal(log.add({ number: 0, content: 'A (resent)' }), false);
    assert.equal(log.add({ number: 5, content: 'f', final: true }), true);
    assert.deepEqual(
      { highest: log.highest, finalSeen: log.finalSeen, complete: log.complete },
      { highest: 5, finalSeen: true, complete: false },
    );
    assert.deepEqual(log.missing(), [1, 3, 4]);
    assert.equal(log.contiguousText(), 'a');
    assert.equal(log.text(), 'acf');
    for (const number of [1, 3, 4]) log.add({ number, content: String(number) });
    assert.deepEqual(log.missing(), []);
    assert.equal(log.complete, true);
    assert.equal(log.contiguousText(), 'a1c34f');
  });

  it('starts at a configurable number and ignores parts below it or not integers', () => {
    const log = new LogParts({ firstPart: 1 });
    assert.equal(log.highest, 0);
    assert.equal(log.add({ number: 0, content: 'x' }), false);
    assert.equal(log.add({ number: 1.5, content: 'x' }), false);
    assert.equal(log.add({ number: 2, content: 'b' }), true);
    assert.deepEqual(log.missing(), [1]);
    assert.equal(log.contiguousText(), '');
    assert.throws(() => new LogParts({ firstPart: -1 }), RangeError);
  });

  it('assembles the parts of an archived log from the real service', () => {
    const { log_parts } = partsAnswer.parse(travisFixture('travisapi_v3_log_archived.json'));
    const log = new LogParts();
    for (const part of log_parts) log.add(part);
    assert.equal(log.complete, true);
    assert.deepEqual(splitLines(cleanLog(log.text())), [
      '$ git clean -fdx',
      'Removing Gemfile.lock',
      '$ git fetch',
    ]);
  });

  it('knows nothing of an empty chunked log', () => {
    const empty = z
      .object({ log: z.object({ parts: z.array(z.object({ number: z.number(), content: z.string() })) }) })
      .parse(travisFixture('travisapi_v2_empty_log.json'));
    const log = new LogParts();
    for (const part of empty.log.parts) log.add(part);
    assert.deepEqual([log.text(), log.highest, log.complete, log.missing()], ['', -1, false, []]);
  });

  it('gives the whole text for any arrival order with duplicates', () => {
    const setup = fc.tuple(rawLog, cutFractions).chain(([text, cuts]) => {
      const parts = partsOf(text, cuts);
      return fc.tuple(fc.constant(text), fc.constant(parts), arrivalOrder(parts));
    });
    fc.assert(
      fc.property(setup, ([text, parts, arrivals]) => {
        const log = new LogParts();
        const accepted = arrivals.filter((part) => log.add(part)).length;
        assert.equal(accepted, parts.length);
        assert.equal(log.text(), text);
        assert.equal(log.contiguousText(), text);
        assert.deepEqual(log.missing(), []);
        assert.equal(log.complete, true);
      }),
      { numRuns: 200 },
    );
  });

  it('reports exactly the parts held back as missing, and the text up to the first of them', () => {
    const setup = fc.tuple(rawLog, cutFractions).chain(([text, cuts]) => {
      const parts = partsOf(text, cuts);
      return fc.tuple(fc.constant(parts), fc.subarray(parts), arrivalOrder(parts));
    });
    fc.assert(
      fc.property(setup, ([parts, withheld, arrivals]) => {
        const log = new LogParts();
        for (const part of arrivals) if (!withheld.includes(part)) log.add(part);
        const present = parts.filter((part) => !withheld.includes(part));
        const highest = Math.max(-1, ...present.map((part) => part.number));
        const gaps = withheld.map((part) => part.number).filter((n) => n < highest);
        assert.deepEqual(log.missing(), gaps);
        const firstGap = withheld[0]?.number ?? parts.length;
        assert.equal(
          log.contiguousText(),
          parts
            .slice(0, firstGap)
            .map((part) => part.content)
            .join(''),
        );
        assert.equal(log.complete, present.some((part) => part.final) && gaps.length === 0);
      }),
      { numRuns: 200 },
    );
  });
});
