import { escapeMrkdwn } from './escape.js';
import { plural } from './format.js';
import { ELLIPSIS, truncate } from './truncate.js';

/**
 * Text in a triple-backtick code block. Outside text cannot close the block early: every run of
 * three or more backticks in it gets a ZERO WIDTH SPACE (U+200B) between its backticks, so the
 * block holds no ``` of its own while looking the same (copying the text copies the invisible
 * characters too; a log is read, not pasted back). The text is also escaped (`&`, `<`, `>`), since
 * Slack still reads `<!channel>` inside code blocks.
 */

const OPEN = '```\n';
const CLOSE = '\n```';
export const FENCE_BREAKER = '\u200b';
/** The fences, and one character of text. */
export const MIN_CODE_BLOCK_CHARS = OPEN.length + CLOSE.length + 1;

/** Inserts FENCE_BREAKER into every run of three or more backticks. */
export function breakFences(text: string): string {
  return text.replace(/`{3,}/g, (run) => run.split('').join(FENCE_BREAKER));
}

const hiddenNote = (lines: number) => `… ${plural(lines, 'earlier line')} not shown`;

/**
 * A code block of at most `maxChars` characters, fences included. When the text does not fit, its
 * end is kept (the end of a log is what explains a failure) and the first line says how many lines
 * were left out: `… 1,234 earlier lines not shown`. A last line too long on its own keeps its end.
 * Throws a RangeError when `maxChars` is below MIN_CODE_BLOCK_CHARS (a programming mistake).
 */
export function codeBlock(text: string, maxChars: number): string {
  if (!(maxChars >= MIN_CODE_BLOCK_CHARS)) {
    throw new RangeError(`codeBlock needs maxChars of at least ${MIN_CODE_BLOCK_CHARS}, got ${maxChars}`);
  }
  const budget = Math.floor(maxChars) - OPEN.length - CLOSE.length;
  const raw = text.replace(/\n+$/, '');
  if (raw.length <= budget) {
    const body = breakFences(escapeMrkdwn(raw));
    if (body.length <= budget) return OPEN + (body === '' ? ' ' : body) + CLOSE;
  }
  // Escaping never shortens text, so nothing before the last `budget` characters can be shown:
  // those lines are only counted, and a 20 MB log costs one scan instead of an escaped copy. One
  // more character is kept so that the line cut in two is longer than the budget, never whole.
  const cut = Math.max(0, raw.length - budget - 1);
  const tail = breakFences(escapeMrkdwn(raw.slice(cut)));
  return OPEN + fitEnd(tail.split('\n'), countLines(raw, cut), budget) + CLOSE;
}

/** How many newlines `text` has before `end`. */
function countLines(text: string, end: number): number {
  let count = 0;
  for (let i = text.indexOf('\n'); i !== -1 && i < end; i = text.indexOf('\n', i + 1)) count++;
  return count;
}

/** The last lines that fit in `budget` under a note counting them and the `hiddenAbove` lines. */
function fitEnd(lines: string[], hiddenAbove: number, budget: number): string {
  let kept = 0;
  let keptLength = -1; // n lines take their lengths plus n - 1 newlines
  for (let i = lines.length - 1; i >= 0; i--) {
    const length = keptLength + 1 + (lines[i]?.length ?? 0);
    if (hiddenNote(hiddenAbove + i).length + 1 + length > budget) break;
    kept++;
    keptLength = length;
  }
  const hidden = hiddenAbove + lines.length - kept;
  if (kept > 0) return `${hiddenNote(hidden)}\n${lines.slice(lines.length - kept).join('\n')}`;

  // Not even the last line fits whole: keep its end, under the note when that leaves room for a
  // useful part of the line.
  const last = lines[lines.length - 1] ?? '';
  const note = hiddenNote(hidden - 1);
  const room = budget - note.length - 1;
  if (hidden > 1 && room >= 10) return `${note}\n${truncate(last, room, { keep: 'end' })}`;
  // No room for the note: a leading ellipsis alone says that something above is missing.
  return truncate(ELLIPSIS + last, budget, { keep: 'end' });
}
