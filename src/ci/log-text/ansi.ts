/**
 * Terminal escape sequences and control characters. Every pattern here is bounded in length and
 * never crosses a newline, so the streaming cleaner can apply it line by line, and in pieces, and
 * get exactly what one pass over the whole text gives (see line-state.ts).
 */

/** Longest OSC/DCS/SOS/PM/APC body we treat as one sequence (OSC 8 hyperlinks carry whole URLs). */
const STRING_BODY_MAX = 2048;
/** Longest CSI parameter run and intermediate run we accept; longer ones are not sequences. */
const CSI_PARAMS_MAX = 64;
const INTERMEDIATES_MAX = 16;

/** An upper bound on the length of any match of `ANSI_SEQUENCE` (the string form is the longest). */
export const MAX_ANSI_LENGTH = STRING_BODY_MAX + 4;

/**
 * One escape sequence, ESC-introduced (7-bit form, which is what logs carry):
 * - CSI `ESC [` params (incl. private markers `? < = >`) intermediates final, e.g. `\e[31;1m`, `\e[?25l`;
 * - OSC `ESC ]`, DCS `ESC P`, SOS `ESC X`, PM `ESC ^`, APC `ESC _`, ended by BEL or ST (`ESC \`);
 * - nF sequences such as `ESC ( B`, and single-character ones such as `ESC 7`, `ESC M`, `ESC =`.
 * A sequence that is cut short (an OSC without terminator before the end of the line, a CSI with a
 * byte that does not belong) loses only its introducer: a lone ESC is always removed.
 */
export const ANSI_SEQUENCE = new RegExp(
  String.raw`\x1b(?:\[[0-?]{0,${CSI_PARAMS_MAX}}[ -/]{0,${INTERMEDIATES_MAX}}[@-~]` +
    String.raw`|[\]PX^_][^\x07\x1b\n]{0,${STRING_BODY_MAX}}(?:\x07|\x1b\\)` +
    `|[ -/]{1,${INTERMEDIATES_MAX}}[0-~]` +
    '|[0-~])?',
  'g',
);

/**
 * Stands for "erase line" in text that went through `applyEscapes`: every ESC of the input is
 * consumed by `ANSI_SEQUENCE`, so an ESC left afterwards can only be this.
 */
export const ERASE_LINE = '\x1b';

/** `ESC [ G` / `ESC [ 1 G` (cursor to column 1): spinners use it where others write `\r`. */
const COLUMN_ONE = new Set(['\x1b[G', '\x1b[0G', '\x1b[1G']);
/** Erase-line codes as the cleaning pipeline keeps them: to the end of the line, or all of it. */
const ERASURES = new Map([
  ['\x1b[K', ERASE_LINE],
  ['\x1b[0K', ERASE_LINE],
  ['\x1b[2K', `\r${ERASE_LINE}`],
]);

/** Present whenever one of the sequences above is (and sometimes when none is). */
// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC introduces the sequences we look for.
const MAYBE_TRANSLATED = /\x1b\[[012]?[GK]/;

function removeSequence(sequence: string): string {
  return COLUMN_ONE.has(sequence) ? '\r' : '';
}

function translateSequence(sequence: string): string {
  return ERASURES.get(sequence) ?? removeSequence(sequence);
}

/**
 * Remove ANSI escape sequences (CSI incl. private modes, OSC, single-char ESC sequences), keep text.
 * The one sequence that moves the cursor to column 1 becomes the `\r` it amounts to, so that
 * `collapseCarriageReturns` treats an npm-style spinner like any progress bar.
 */
export function stripAnsi(text: string): string {
  if (!text.includes('\x1b')) return text;
  return MAYBE_TRANSLATED.test(text)
    ? text.replace(ANSI_SEQUENCE, removeSequence)
    : text.replace(ANSI_SEQUENCE, '');
}

/**
 * `stripAnsi` for the cleaning pipeline: erase-line codes are kept as `ERASE_LINE` (and `ESC[2K` as
 * `\r` + `ERASE_LINE`) so that the carriage-return pass can honour `\r\e[K`, as a terminal does.
 */
export function applyEscapes(text: string): string {
  if (!text.includes('\x1b')) return text;
  // A replacement callback is several times slower than a plain replacement: use it only when a
  // sequence that becomes something could be there.
  if (!MAYBE_TRANSLATED.test(text)) return text.replace(ANSI_SEQUENCE, '');
  return text.replace(ANSI_SEQUENCE, translateSequence);
}

/**
 * C0 and C1 control characters that a terminal does not print, except tab, newline, carriage
 * return (those carry layout) and ESC (`ERASE_LINE` after `applyEscapes`). BEL, backspace, NUL,
 * DEL and stray 8-bit controls go; backspaces are dropped, not applied.
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching control characters is the point.
const CONTROL_CHARS = /[\x00-\x08\x0b\x0c\x0e-\x1a\x1c-\x1f\x7f-\x9f]/g;

/** Remove the control characters a terminal would not print (see `CONTROL_CHARS`). */
export function dropControlChars(text: string): string {
  return text.replace(CONTROL_CHARS, '');
}
