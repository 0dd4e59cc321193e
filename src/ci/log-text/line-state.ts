import { ANSI_SEQUENCE, MAX_ANSI_LENGTH } from './ansi.js';
import { printable } from './clean.js';
import { LineDisplay } from './display.js';
import { MAX_MARKER_LENGTH, TRAVIS_MARKER } from './markers.js';

/** A buffer is folded forward once it holds this many characters (amortises the scans). */
const COMPACT_AT = 16 * 1024;

/**
 * Where a buffer can be cut so that cleaning the two pieces apart equals cleaning them together:
 * a point no match of `pattern` straddles, and far enough from the end (`maxMatch`) that data still
 * to come cannot change any match starting before it. Returns 0 when no such point exists yet.
 */
function safeCut(buffer: string, pattern: RegExp, maxMatch: number): number {
  let cut = buffer.length - maxMatch;
  if (cut <= 0) return 0;
  pattern.lastIndex = 0;
  for (let match = pattern.exec(buffer); match !== null; match = pattern.exec(buffer)) {
    if (match.index >= cut) break;
    const end = match.index + match[0].length;
    if (end > cut) {
      cut = end;
      break;
    }
  }
  return cut;
}

/**
 * The line being received, cleaned as it grows so that it never takes more memory than the line
 * cap plus a few tens of kilobytes, however long the raw line is (a progress bar redrawn for an
 * hour is one line). Gives exactly what `cleanLine` gives on the whole raw line: each pass (markers,
 * then escapes and controls, then the display) takes a prefix only once no match can cross its end.
 */
export class LineState {
  /** Raw text not yet through the marker pass. */
  private raw = '';
  /** Marker pass done, escape pass not yet. */
  private unescaped = '';
  private display: LineDisplay;
  private sawMarker = false;

  constructor(private readonly maxLineLength: number) {
    this.display = new LineDisplay(maxLineLength);
  }

  append(text: string): void {
    this.raw += text;
    if (this.raw.length >= COMPACT_AT) this.advance(false);
  }

  /** The cleaned line as if it ended now; the state is left as it was. */
  peek(): string | undefined {
    const copy = new LineState(this.maxLineLength);
    copy.raw = this.raw;
    copy.unescaped = this.unescaped;
    copy.display = this.display.copy();
    copy.sawMarker = this.sawMarker;
    return copy.finish();
  }

  /** The cleaned line (undefined when it held only markers); the state is reset for the next line. */
  finish(): string | undefined {
    this.advance(true);
    const line = this.sawMarker && !this.display.hasText ? undefined : this.display.text;
    this.raw = '';
    this.unescaped = '';
    this.display = new LineDisplay(this.maxLineLength);
    this.sawMarker = false;
    return line;
  }

  private advance(lineEnded: boolean): void {
    const markerCut = lineEnded ? this.raw.length : safeCut(this.raw, TRAVIS_MARKER, MAX_MARKER_LENGTH);
    if (markerCut > 0) {
      const piece = this.raw.slice(0, markerCut);
      this.raw = this.raw.slice(markerCut);
      const withoutMarkers = piece.replace(TRAVIS_MARKER, '');
      if (withoutMarkers.length !== piece.length) this.sawMarker = true;
      this.unescaped += withoutMarkers;
    }
    if (!lineEnded && this.unescaped.length < COMPACT_AT) return;
    const escapeCut = lineEnded
      ? this.unescaped.length
      : safeCut(this.unescaped, ANSI_SEQUENCE, MAX_ANSI_LENGTH);
    if (escapeCut === 0) return;
    const text = printable(this.unescaped.slice(0, escapeCut));
    this.unescaped = this.unescaped.slice(escapeCut);
    this.display.add(text);
  }
}
