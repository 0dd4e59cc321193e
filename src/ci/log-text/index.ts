/**
 * Log text helpers: turn raw Travis job logs (terminal output with ANSI escapes, `\r` redraws,
 * fold and timing markers) into the plain lines a person reads, whole, streamed, or live from
 * numbered parts. No I/O here: callers hand in text, bytes or async iterables.
 *
 * Cleaning is line by line and the same everywhere: `cleanLog` on a whole log, `LogCleaner` on any
 * chunking of it, `tailLog` on a stream and `LiveTail` on parts in any order all give the same lines.
 *
 * A line shows the text after its last `\r` (and `\r\e[K` blanks it), which is what progress bars
 * and spinners need. Not emulated: cursor movement up or sideways (a `docker pull` redrawing several
 * lines shows each redraw), backspaces (dropped, not applied), characters overwritten in place.
 */
export { stripAnsi } from './ansi.js';
export {
  type CleanOptions,
  cleanLog,
  collapseCarriageReturns,
  DEFAULT_MAX_LINE_LENGTH,
  splitLines,
} from './clean.js';
export { LogCleaner } from './cleaner.js';
export { LiveTail, type LiveTailOptions } from './live-tail.js';
export { dropMarkers } from './markers.js';
export { type LogPartInput, LogParts } from './parts.js';
export { DEFAULT_TAIL_LINES, type LogTail, type TailLimits, tailLog } from './tail.js';
