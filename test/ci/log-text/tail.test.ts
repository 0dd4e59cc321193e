import assert from 'node:assert/strict';
import { createReadStream } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { cleanLog, splitLines, tailLog } from '../../../src/ci/log-text/index.js';
import { cutFractions, rawLog, splitAt, streamOf } from './arbitraries.js';
import { expectedFixture, LOG_FIXTURES } from './fixtures.js';

/** What a byte limit keeps of a list of lines: the last ones that fit joined; one cut line if none. */
function lastLinesWithinBytes(lines: string[], maxBytes: number): { lines: string[]; cut: boolean } {
  if (maxBytes === 0) return { lines: [], cut: false };
  const kept: string[] = [];
  let size = -1;
  for (let i = lines.length - 1; i >= 0; i -= 1) {
    const line = lines[i] ?? '';
    const next = size + 1 + Buffer.byteLength(line);
    if (next > maxBytes) break;
    kept.unshift(line);
    size = next;
  }
  const last = lines[lines.length - 1];
  if (kept.length > 0 || last === undefined) return { lines: kept, cut: false };
  // The last line alone is too long: keep its last bytes, whole characters only.
  const chars = [...last];
  let tail = '';
  while (chars.length > 0 && Buffer.byteLength((chars.at(-1) ?? '') + tail) <= maxBytes)
    tail = chars.pop() + tail;
  return { lines: [tail], cut: true };
}

describe('tailLog', () => {
  for (const name of LOG_FIXTURES) {
    it(`tails test/fixtures/logs/${name}.rawlog read as a file stream in small chunks`, async () => {
      const expected = splitLines(expectedFixture(name));
      const file = createReadStream(new URL(`../../fixtures/logs/${name}.rawlog`, import.meta.url), {
        highWaterMark: 13,
      });
      const tail = await tailLog(file, { lines: 5 });
      assert.deepEqual(tail.lines, expected.slice(-5));
      assert.equal(tail.totalLines, expected.length);
      assert.equal(tail.truncated, true);
    });
  }

  it('keeps the last 40 lines when given no limit, and reports an empty log as empty', async () => {
    const lines = Array.from({ length: 100 }, (_, i) => `line ${i}`);
    const tail = await tailLog(streamOf([`${lines.join('\n')}\n`]), {});
    assert.deepEqual(tail.lines, lines.slice(-40));
    assert.deepEqual(await tailLog(streamOf([]), { lines: 3 }), {
      lines: [],
      totalLines: 0,
      totalBytes: 0,
      truncated: false,
    });
  });

  it('counts raw bytes and refuses limits that are not non-negative integers', async () => {
    const tail = await tailLog(streamOf(['\x1b[31m€\x1b[0m\n', Buffer.from('ok')]), { lines: 10 });
    assert.deepEqual(tail, { lines: ['€', 'ok'], totalLines: 2, totalBytes: 15, truncated: false });
    await assert.rejects(tailLog(streamOf([]), { lines: -1 }), RangeError);
    await assert.rejects(tailLog(streamOf([]), { bytes: 1.5 }), RangeError);
  });

  it('cuts a single line longer than the byte limit at a character boundary', async () => {
    const tail = await tailLog(streamOf(['first\nabc€😀\n']), { bytes: 6 });
    assert.deepEqual(tail, { lines: ['😀'], totalLines: 2, totalBytes: 17, truncated: true });
  });

  it('equals the last N lines of the whole cleaned log, for any text split anywhere', async () => {
    await fc.assert(
      fc.asyncProperty(rawLog, cutFractions, fc.integer({ min: 0, max: 8 }), async (raw, cuts, n) => {
        const all = splitLines(cleanLog(raw));
        const tail = await tailLog(streamOf(splitAt(Buffer.from(raw), cuts)), { lines: n });
        assert.deepEqual(tail, {
          lines: n === 0 ? [] : all.slice(-n),
          totalLines: all.length,
          totalBytes: Buffer.byteLength(raw),
          truncated: all.length > n,
        });
      }),
      { numRuns: 300 },
    );
  });

  it('equals the last lines that fit a byte limit, with or without a line limit', async () => {
    await fc.assert(
      fc.asyncProperty(
        rawLog,
        cutFractions,
        fc.integer({ min: 0, max: 40 }),
        fc.option(fc.integer({ min: 1, max: 6 }), { nil: undefined }),
        async (raw, cuts, bytes, lines) => {
          const all = splitLines(cleanLog(raw));
          const expected = lastLinesWithinBytes(lines === undefined ? all : all.slice(-lines), bytes);
          const tail = await tailLog(streamOf(splitAt(raw, cuts)), { bytes, lines });
          assert.deepEqual(tail.lines, expected.lines);
          assert.equal(tail.totalLines, all.length);
          assert.equal(tail.truncated, expected.cut || expected.lines.length < all.length);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('tails a 20 MB log streamed in chunks in bounded memory', async () => {
    const totalSize = 20 * 1024 * 1024;
    const chunkSize = 64 * 1024;
    const keep = 25;
    const expectedTail: string[] = [];
    let expectedLines = 0;
    const samples: number[] = [];
    const gc = (globalThis as { gc?: () => void }).gc;
    const used = (): number => {
      const { heapUsed, arrayBuffers } = process.memoryUsage();
      return heapUsed + arrayBuffers;
    };

    // Real-looking lines: colours, folds and timers, progress bars redrawn with \r, CRLF endings,
    // multi-byte characters; each with the cleaned line it must become (undefined: dropped).
    function line(n: number): [string, string | undefined] {
      if (n % 500 === 0)
        return [
          `travis_fold:start:step.${n}\r\x1b[0Ktravis_time:start:${n.toString(16)}\r\x1b[0K`,
          undefined,
        ];
      if (n % 500 === 1) return [`\x1b[33;1m$ run step ${n}\x1b[0m\r\n`, `$ run step ${n}`];
      if (n % 500 === 499)
        return [
          `travis_time:end:${n.toString(16)}:start=1,finish=2,duration=1\r\x1b[0Ktravis_fold:end:step.${n - 499}\r\x1b[0K\r\n`,
          undefined,
        ];
      if (n % 7 === 0)
        return [`fetch ${n}: 10%\r fetch ${n}: 55%\r\x1b[K fetch ${n}: 100% ✔\r\n`, ` fetch ${n}: 100% ✔`];
      return [
        `\x1b[32m✔\x1b[0m test ${n} passes — ünïcödé ok \x1b[90m(${n % 97}ms)\x1b[0m\r\n`,
        `✔ test ${n} passes — ünïcödé ok (${n % 97}ms)`,
      ];
    }

    async function* hugeLog(): AsyncGenerator<Uint8Array> {
      let produced = 0;
      let pending: Buffer[] = [];
      let pendingSize = 0;
      for (let n = 0; produced < totalSize; n += 1) {
        const [raw, clean] = line(n);
        if (clean !== undefined) {
          expectedLines += 1;
          expectedTail.push(clean);
          if (expectedTail.length > keep) expectedTail.shift();
        }
        const bytes = Buffer.from(raw);
        pending.push(bytes);
        pendingSize += bytes.length;
        if (pendingSize < chunkSize) continue;
        // Cut exactly every 64 KiB: through lines, escapes, markers and UTF-8 characters alike.
        const joined = Buffer.concat(pending);
        for (let start = 0; start + chunkSize <= joined.length; start += chunkSize) {
          produced += chunkSize;
          yield joined.subarray(start, start + chunkSize);
          samples.push(used());
        }
        const rest = joined.subarray(joined.length - (joined.length % chunkSize));
        pending = [Buffer.from(rest)];
        pendingSize = rest.length;
      }
      // The log ends on a line without a newline.
      const last = '\x1b[32mDone. Your build exited with 0.\x1b[0m';
      expectedLines += 1;
      expectedTail.push('Done. Your build exited with 0.');
      expectedTail.shift();
      produced += pendingSize;
      yield Buffer.concat([...pending, Buffer.from(last)]);
    }

    gc?.();
    const baseline = used();
    const tail = await tailLog(hugeLog(), { lines: keep });

    assert.deepEqual(tail.lines, expectedTail);
    assert.equal(tail.totalLines, expectedLines);
    assert.ok(tail.totalBytes > totalSize);
    assert.equal(tail.truncated, true);
    // Without a forced GC the heap is a saw-tooth of garbage; what is retained shows in its troughs.
    // Holding the log (20 MB of bytes, 40 MB as a string) would lift every trough past 20 MB.
    const lastQuarter = samples.slice(Math.floor(samples.length * 0.75));
    const retained = Math.min(...lastQuarter) - baseline;
    assert.ok(samples.length > 300);
    assert.ok(retained < 8 * 1024 * 1024, `memory grew by ${(retained / 1024 / 1024).toFixed(1)} MB`);
  });
});
