import { DEFAULT_MAX_LINE_LENGTH } from './clean.js';
import { LogCleaner } from './cleaner.js';
import { LineWindow } from './window.js';

export interface TailLimits {
  /** Keep at most this many lines. */
  lines?: number;
  /** Keep at most this many UTF-8 bytes (lines joined with `\n`); a single longer line keeps its end. */
  bytes?: number;
}

export interface LogTail {
  /** The last cleaned lines, oldest first. */
  lines: string[];
  /** Cleaned lines in the whole log. */
  totalLines: number;
  /** Raw bytes read from the source (strings counted as UTF-8). */
  totalBytes: number;
  /** True when lines were left out or the first line kept was cut to fit `bytes`. */
  truncated: boolean;
}

/** Lines kept when the caller gives no limit at all. */
export const DEFAULT_TAIL_LINES = 40;

function checkLimit(name: string, value: number | undefined): void {
  if (value !== undefined && (!Number.isInteger(value) || value < 0)) {
    throw new RangeError(`tail limit ${name} must be a non-negative integer`);
  }
}

/** The last `max` bytes of a line as UTF-8, cut at a character boundary. */
function keepEndBytes(line: string, max: number): string {
  const bytes = Buffer.from(line);
  let start = bytes.length - max;
  // Step past continuation bytes (10xxxxxx) so that no character is cut in half.
  while (start < bytes.length && ((bytes[start] ?? 0) & 0xc0) === 0x80) start += 1;
  return bytes.subarray(start).toString();
}

/**
 * The last lines and/or last bytes of a log of any size, read from an async iterable (an undici body
 * stream, a file stream ...), cleaned, in memory bounded by the limits and the longest line (the log
 * itself is never held). With no limit given, the last `DEFAULT_TAIL_LINES` lines.
 */
export async function tailLog(
  source: AsyncIterable<string | Uint8Array>,
  limits: TailLimits,
): Promise<LogTail> {
  checkLimit('lines', limits.lines);
  checkLimit('bytes', limits.bytes);
  const maxLines =
    limits.lines ?? (limits.bytes === undefined ? DEFAULT_TAIL_LINES : Number.POSITIVE_INFINITY);
  const maxBytes = limits.bytes ?? Number.POSITIVE_INFINITY;
  // A line longer than the byte limit is cut anyway: cleaning keeps no more of it than we need to
  // see that it is too long (two characters more than `bytes` is always more than `bytes` bytes).
  const cleaner = new LogCleaner({ maxLineLength: Math.min(DEFAULT_MAX_LINE_LENGTH, maxBytes + 2) });
  const lastLines = new LineWindow(maxLines, maxBytes);
  let totalLines = 0;
  let totalBytes = 0;
  const keep = (lines: string[]): void => {
    totalLines += lines.length;
    for (const line of lines) lastLines.push(line);
  };
  for await (const chunk of source) {
    totalBytes += typeof chunk === 'string' ? Buffer.byteLength(chunk) : chunk.byteLength;
    keep(cleaner.push(chunk));
  }
  keep(cleaner.flush());

  const lines = maxBytes === 0 ? [] : lastLines.toArray();
  let cut = false;
  const first = lines[0];
  if (lines.length === 1 && first !== undefined && Buffer.byteLength(first) > maxBytes) {
    lines[0] = keepEndBytes(first, maxBytes);
    cut = true;
  }
  return { lines, totalLines, totalBytes, truncated: cut || lines.length < totalLines };
}
