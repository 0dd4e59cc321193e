import fc from 'fast-check';

/**
 * Pieces of real-looking log output: escapes of every kind (complete and cut short), Travis
 * markers (whole and as fragments), carriage returns and newlines in all combinations, control
 * characters, multi-byte and astral characters. Joined at random they also build odd mixes such
 * as a marker inside an escape or an escape cut by a newline.
 */
const FRAGMENTS = [
  '\x1b[31m',
  '\x1b[0m',
  '\x1b[33;1m',
  '\x1b[0K',
  '\x1b[K',
  '\x1b[2K',
  '\x1b[1G',
  '\x1b[?25l',
  '\x1b[1A',
  '\x1b]0;title\x07',
  '\x1b]8;;https://example.com\x1b\\',
  '\x1b(B',
  '\x1b7',
  '\x1bP1$r\x1b\\',
  '\x1b',
  '\x1b[',
  '\x1b]',
  '[',
  'm',
  '0K',
  'travis_fold:start:install.1\r\x1b[0K',
  'travis_fold:end:install.1\r\x1b[0K',
  'travis_time:start:0f2a1b\r\x1b[0K',
  'travis_time:end:0f2a1b:start=1,finish=2,duration=1,event=install\r\x1b[0K',
  'travis_fold:end:deps\r',
  'travis_',
  'fold:start:',
  '\r',
  '\n',
  '\r\n',
  '\r\r\n',
  '\t',
  '\x07',
  '\b',
  '\x00',
  'é',
  '€',
  '😀',
  ' ',
  '$ npm test',
  ' 50%',
  '✔ ok',
];

export const logFragment: fc.Arbitrary<string> = fc.oneof(
  { weight: 4, arbitrary: fc.constantFrom(...FRAGMENTS) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
);

/** A short raw log. */
export const rawLog: fc.Arbitrary<string> = fc
  .array(logFragment, { maxLength: 80 })
  .map((pieces) => pieces.join(''));

/** Cut points as fractions, so that one arbitrary fits texts of any length. */
export const cutFractions: fc.Arbitrary<number[]> = fc.array(fc.double({ min: 0, max: 1, noNaN: true }), {
  maxLength: 30,
});

/** Split `whole` (a string or bytes) at the given fractions of its length; empty pieces included. */
export function splitAt<T extends string | Uint8Array>(whole: T, fractions: number[]): T[] {
  const cuts = fractions.map((f) => Math.floor(f * whole.length)).sort((a, b) => a - b);
  const pieces: T[] = [];
  let start = 0;
  for (const cut of [...cuts, whole.length]) {
    pieces.push(whole.slice(start, cut) as T);
    start = cut;
  }
  return pieces;
}

/** A stream of the given chunks, as an undici body would give them. */
export async function* streamOf<T>(chunks: Iterable<T>): AsyncGenerator<T> {
  for (const chunk of chunks) yield chunk;
}

export interface Part {
  number: number;
  content: string;
  final?: boolean;
}

/** Numbered parts of `text`, cut at the given fractions; the last one is final. */
export function partsOf(text: string, cuts: number[]): Part[] {
  const pieces = splitAt(text, cuts);
  return pieces.map((content, i) => ({ number: i, content, final: i === pieces.length - 1 }));
}

/** Every part once, some of them twice or more, in an order fast-check chooses. */
export function arrivalOrder(parts: Part[]): fc.Arbitrary<Part[]> {
  const copies = fc.array(fc.nat({ max: Math.max(0, parts.length - 1) }), { maxLength: parts.length });
  return copies.chain((extra) => {
    const all = [...parts, ...extra.flatMap((i) => parts.slice(i, i + 1))];
    return fc.shuffledSubarray(all, { minLength: all.length, maxLength: all.length });
  });
}
