import fc from 'fast-check';

/**
 * Any text: every code point, lone surrogates and control characters included. (fast-check's
 * `unit: 'binary'` strings cover the same ground but take over a second to set up per process.)
 */
export function anyText(maxLength = 40): fc.Arbitrary<string> {
  const char = fc.oneof(
    fc.integer({ min: 0, max: 0x7f }).map((c) => String.fromCharCode(c)),
    fc.integer({ min: 0, max: 0x10ffff }).map((c) => String.fromCodePoint(c)),
    fc.integer({ min: 0xd800, max: 0xdfff }).map((c) => String.fromCharCode(c)),
  );
  return fc.array(char, { maxLength }).map((chars) => chars.join(''));
}
