import { type CleanOptions, cleanCompleteLines, resolveMaxLineLength } from './clean.js';
import { LineState } from './line-state.js';

/**
 * Streaming cleaner: feed raw chunks (strings or bytes, split anywhere — inside an escape sequence,
 * a marker or a UTF-8 character) and get cleaned complete lines out; `flush()` gives the last,
 * unterminated line. The lines are exactly `splitLines(cleanLog(all chunks joined))`.
 *
 * Memory is bounded by the longest line: a cleaned line is capped at `maxLineLength` characters
 * (default 64 KiB), keeping its end, and the raw text of the current line is cleaned as it grows.
 * Bytes are decoded as UTF-8 (invalid bytes become U+FFFD). A string chunk arriving while bytes of
 * an unfinished UTF-8 character are waiting ends that character as U+FFFD.
 */
export class LogCleaner {
  private readonly maxLineLength: number;
  private decoder = new TextDecoder('utf-8');
  private decoderPending = false;
  private readonly line: LineState;

  constructor(options?: CleanOptions) {
    this.maxLineLength = resolveMaxLineLength(options);
    this.line = new LineState(this.maxLineLength);
  }

  push(chunk: string | Uint8Array): string[] {
    return this.pushText(this.decode(chunk));
  }

  /** Ends the stream: the last line if it has any text. The cleaner can then start a new stream. */
  flush(): string[] {
    const rest = this.decoderPending ? this.decoder.decode() : '';
    this.decoderPending = false;
    this.line.append(rest);
    const last = this.line.finish();
    return last === undefined || last === '' ? [] : [last];
  }

  /** The unterminated line as it would be cleaned if the stream ended now (undefined if none). */
  pending(): string | undefined {
    const last = this.line.peek();
    return last === '' ? undefined : last;
  }

  private decode(chunk: string | Uint8Array): string {
    if (typeof chunk !== 'string') {
      this.decoderPending = true;
      return this.decoder.decode(chunk, { stream: true });
    }
    if (!this.decoderPending) return chunk;
    this.decoderPending = false;
    return this.decoder.decode() + chunk;
  }

  private pushText(text: string): string[] {
    const firstNewline = text.indexOf('\n');
    if (firstNewline === -1) {
      this.line.append(text);
      return [];
    }
    this.line.append(text.slice(0, firstNewline));
    const first = this.line.finish();
    const lines = first === undefined ? [] : [first];
    const lastNewline = text.lastIndexOf('\n');
    if (lastNewline > firstNewline) {
      for (const line of cleanCompleteLines(text.slice(firstNewline + 1, lastNewline), this.maxLineLength)) {
        lines.push(line);
      }
    }
    this.line.append(text.slice(lastNewline + 1));
    return lines;
  }
}
