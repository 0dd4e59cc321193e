import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { z } from 'zod';
import {
  cleanLog,
  collapseCarriageReturns,
  dropMarkers,
  splitLines,
  stripAnsi,
} from '../../../src/ci/log-text/index.js';
import { rawLog } from './arbitraries.js';
import { expectedFixture, LOG_FIXTURES, rawFixture, travisFixture } from './fixtures.js';

describe('stripAnsi', () => {
  it('removes colours, private modes, OSC, nF and single-character sequences, keeping the text', () => {
    assert.equal(stripAnsi('\x1b[31;1mred\x1b[0m and \x1b[38;5;208mamber\x1b[m'), 'red and amber');
    assert.equal(stripAnsi('\x1b[?25lhidden cursor\x1b[?25h'), 'hidden cursor');
    assert.equal(stripAnsi('\x1b]0;window title\x07text'), 'text');
    assert.equal(stripAnsi('\x1b]8;;https://example.com\x1b\\link\x1b]8;;\x1b\\'), 'link');
    assert.equal(stripAnsi('\x1bPq#0;2;0;0;0\x1b\\after'), 'after');
    assert.equal(stripAnsi('\x1b(Bx\x1b7y\x1b8z\x1b=\x1bM'), 'xyz');
    assert.equal(stripAnsi('\x1b[2J\x1b[1;1Hhome'), 'home');
  });

  it('drops a lone ESC or a cut-short sequence without eating the text after it', () => {
    assert.equal(stripAnsi('end \x1b'), 'end ');
    assert.equal(stripAnsi('a\x1b[\nb'), 'a\nb');
    assert.equal(stripAnsi('\x1b]0;no terminator\nnext'), '0;no terminator\nnext');
    assert.equal(stripAnsi(`\x1b[${'1'.repeat(100)}mtext`), `${'1'.repeat(100)}mtext`);
  });

  it('turns a cursor move to column 1 into the carriage return it amounts to', () => {
    assert.equal(stripAnsi('\x1b[1G⠙\x1b[G⠹'), '\r⠙\r⠹');
  });

  it('leaves text without escapes untouched', () => {
    assert.equal(stripAnsi('plain [31m text\r\n'), 'plain [31m text\r\n');
  });
});

describe('dropMarkers', () => {
  it('removes fold and time markers with their \\r and clear-line code', () => {
    const raw =
      'travis_fold:start:install.1\r\x1b[0Ktravis_time:start:0f2a1b\r\x1b[0K$ npm ci\n' +
      'added 1 package\ntravis_time:end:0f2a1b:start=1,finish=2,duration=1,event=install\r\x1b[0K' +
      'travis_fold:end:install.1\r\x1b[0K$ npm test\n';
    assert.equal(dropMarkers(raw), '$ npm ci\nadded 1 package\n$ npm test\n');
  });

  it('removes markers written without \\r, keeping the escape that follows the name', () => {
    assert.equal(dropMarkers('travis_fold:start:deps\x1b[33;1mDeps\x1b[0m\n'), '\x1b[33;1mDeps\x1b[0m\n');
    assert.equal(dropMarkers('\ntravis_fold:end:deps\r\n'), '\n\n');
  });

  it('keeps the text written before a marker on the same line', () => {
    assert.equal(dropMarkers('no newline yettravis_time:end:ab:start=1\r\x1b[0K'), 'no newline yet');
  });

  it('keeps words that only look like markers', () => {
    assert.equal(
      dropMarkers('travis_fold is a word; travis_time:later'),
      'travis_fold is a word; travis_time:later',
    );
  });
});

describe('collapseCarriageReturns', () => {
  it('keeps what the terminal finally shows of each line', () => {
    assert.equal(collapseCarriageReturns('10%\r55%\r100% done\nnext'), '100% done\nnext');
  });

  it('treats \\r\\n (and \\r\\r\\n) as a newline', () => {
    assert.equal(collapseCarriageReturns('a\r\nb\r\r\nc'), 'a\nb\nc');
  });

  it('shows a line whose redraw stopped on a \\r, and the empty lines as empty', () => {
    assert.equal(collapseCarriageReturns('37%\r'), '37%');
    assert.equal(collapseCarriageReturns('\r\n\n\r'), '\n\n');
  });
});

describe('cleanLog', () => {
  for (const name of LOG_FIXTURES) {
    it(`cleans test/fixtures/logs/${name}.rawlog to the hand-written expected text`, () => {
      assert.equal(cleanLog(rawFixture(name)), expectedFixture(name));
    });
  }

  it('passes the plain bodies of the real service through unchanged', () => {
    const v2 = z
      .object({ log: z.object({ body: z.string() }) })
      .parse(travisFixture('travisrb_v2_log_3168318.json'));
    assert.equal(cleanLog(v2.log.body), '$ export GEM=railties\n');
    assert.deepEqual(splitLines(cleanLog(v2.log.body)), ['$ export GEM=railties']);
    const v3 = z.object({ content: z.string() }).parse(travisFixture('travisapi_v3_log_archived.json'));
    assert.deepEqual(splitLines(cleanLog(v3.content)), [
      '$ git clean -fdx',
      'Removing Gemfile.lock',
      '$ git fetch',
    ]);
  });

  it('drops a line that held only markers, newline included, and keeps real empty lines', () => {
    assert.equal(cleanLog('a\ntravis_fold:end:x\r\x1b[0K\n\nb\n'), 'a\n\nb\n');
    assert.equal(cleanLog('travis_fold:start:x\r\x1b[0K'), '');
  });

  it('blanks a line that was erased after a carriage return, as the terminal does', () => {
    assert.equal(cleanLog('Downloading 40%\r\x1b[K\n'), '\n');
    assert.equal(cleanLog('spinner ⠙\x1b[1G\x1b[0K\n'), '\n');
    assert.equal(cleanLog('done.\x1b[K\n'), 'done.\n');
    assert.equal(cleanLog('old text\x1b[2Knew\n'), 'new\n');
  });

  it('removes control characters a terminal does not print, keeping tabs', () => {
    assert.equal(cleanLog('\x07bell\ttab\x00nul\x7f\b\x9b\n'), 'bell\ttabnul\n');
  });

  it('keeps the end of an over-long line, without splitting a surrogate pair', () => {
    assert.equal(cleanLog(`${'x'.repeat(20)}end\n`, { maxLineLength: 5 }), 'xxend\n');
    assert.equal(cleanLog('ab😀cd', { maxLineLength: 3 }), 'cd');
    assert.equal(cleanLog('a'.repeat(70_000)).length, 64 * 1024);
    assert.throws(() => cleanLog('x', { maxLineLength: 0 }), RangeError);
  });

  it('leaves no escape, carriage return or unprintable control in its output', () => {
    fc.assert(
      fc.property(rawLog, (raw) => {
        const unprintable = [...cleanLog(raw)].filter((char) => {
          const code = char.charCodeAt(0);
          return char !== '\t' && char !== '\n' && (code < 0x20 || (code >= 0x7f && code <= 0x9f));
        });
        assert.deepEqual(unprintable, []);
      }),
      { numRuns: 300 },
    );
  });

  it('is exactly collapseCarriageReturns on text without markers, escapes or controls', () => {
    const plain = fc
      .array(fc.constantFrom('a', 'é', '😀', ' ', '\t', '\r', '\n', '\r\n', '42%'), { maxLength: 60 })
      .map((pieces) => pieces.join(''));
    fc.assert(
      fc.property(plain, (text) => {
        assert.equal(cleanLog(text), collapseCarriageReturns(text));
      }),
      { numRuns: 300 },
    );
  });

  it('changes nothing when run on its own output', () => {
    fc.assert(
      fc.property(rawLog, (raw) => {
        const once = cleanLog(raw);
        // Unless cleaning revealed text that looks like a marker (e.g. travis_\e[0mfold:start:x).
        fc.pre(!once.includes('travis_'));
        assert.equal(cleanLog(once), once);
      }),
      { numRuns: 300 },
    );
  });
});
