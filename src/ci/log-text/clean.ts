import { applyEscapes, dropControlChars } from './ansi.js';
import { displayLine, keepEnd } from './display.js';
import { dropMarkers } from './markers.js';

/**
 * A single cleaned line keeps at most this many characters (UTF-16 code units), its end: the end
 * of an over-long line is what a progress bar or a stack trace shows last. This is what bounds the
 * memory of the streaming cleaner, so `cleanLog` applies the same cap to stay equal to it.
 */
export const DEFAULT_MAX_LINE_LENGTH = 64 * 1024;

export interface CleanOptions {
  /** Characters kept of each cleaned line (its end); default `DEFAULT_MAX_LINE_LENGTH`. */
  maxLineLength?: number;
}

export function resolveMaxLineLength(options: CleanOptions | undefined): number {
  const max = options?.maxLineLength ?? DEFAULT_MAX_LINE_LENGTH;
  if (!Number.isSafeInteger(max) || max < 1) throw new RangeError('maxLineLength must be a positive integer');
  return max;
}

/** One line (no `\n`): the text after its last `\r`, ignoring `\r`s at its very end. */
function collapseLine(line: string): string {
  let end = line.length;
  while (end > 0 && line.charCodeAt(end - 1) === 13) end -= 1;
  return line.slice(line.lastIndexOf('\r', end - 1) + 1, end);
}

/**
 * Apply carriage returns: each line shows only what the terminal would finally show, the text after
 * its last `\r` (`\r\n` is a newline, and a `\r` at the very end of a line redraws nothing).
 */
export function collapseCarriageReturns(text: string): string {
  if (!text.includes('\r')) return text;
  return text.split('\n').map(collapseLine).join('\n');
}

/** Escapes applied, unprintable controls dropped: the input of `LineDisplay`. */
export function printable(text: string): string {
  return dropControlChars(applyEscapes(text));
}

/**
 * Clean one raw line (without its `\n`). Returns undefined for a line that held only markers
 * (and escape codes): such a line disappears together with its newline, as in the web viewer.
 */
export function cleanLine(raw: string, maxLineLength: number): string | undefined {
  const withoutMarkers = dropMarkers(raw);
  const display = displayLine(printable(withoutMarkers), maxLineLength);
  return withoutMarkers.length !== raw.length && !display.hasText ? undefined : display.text;
}

/** Clean a block of complete lines (`\n`-separated, no final `\n`); returns the lines kept. */
export function cleanCompleteLines(block: string, maxLineLength: number): string[] {
  if (block.includes('travis_')) {
    const kept: string[] = [];
    for (const raw of block.split('\n')) {
      const line = cleanLine(raw, maxLineLength);
      if (line !== undefined) kept.push(line);
    }
    return kept;
  }
  // No marker anywhere: no line can disappear, and the other passes never cross a newline, so they
  // run once over the whole block.
  const text = printable(block);
  const simple = !text.includes('\r') && !text.includes('\x1b');
  return text
    .split('\n')
    .map((line) => (simple ? keepEnd(line, maxLineLength) : displayLine(line, maxLineLength).text));
}

/**
 * The function to call on a whole log. Per line, in this order: Travis markers removed (first,
 * because their `\r` must go with them rather than erase the text before them), escape sequences
 * removed (honouring cursor-to-column-1 and erase-line), unprintable control characters removed,
 * carriage returns applied (which also normalises `\r\n`), and the line capped at `maxLineLength`
 * characters keeping its end. A line that held nothing but markers disappears.
 */
export function cleanLog(text: string, options?: CleanOptions): string {
  const maxLineLength = resolveMaxLineLength(options);
  const lastNewline = text.lastIndexOf('\n');
  const complete = lastNewline === -1 ? [] : cleanCompleteLines(text.slice(0, lastNewline), maxLineLength);
  const partial = cleanLine(text.slice(lastNewline + 1), maxLineLength) ?? '';
  return complete.length === 0 ? partial : `${complete.join('\n')}\n${partial}`;
}

/** The lines of a cleaned text: split on `\n`, without the empty piece after a final newline. */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines;
}
