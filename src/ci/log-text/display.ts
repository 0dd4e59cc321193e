import { ERASE_LINE } from './ansi.js';

// biome-ignore lint/suspicious/noControlCharactersInRegex: ESC stands for ERASE_LINE here.
const SPECIAL = /[\r\x1b]/g;

/** The last `max` characters of `text`, without a low surrogate cut from its pair. */
export function keepEnd(text: string, max: number): string {
  if (text.length <= max) return text;
  const end = text.slice(text.length - max);
  const first = end.charCodeAt(0);
  return first >= 0xdc00 && first <= 0xdfff ? end.slice(1) : end;
}

/**
 * What a terminal shows of one line, built from text whose escapes went through `applyEscapes`:
 * `\r` moves to column 1 and the next text starts the line over (so a line shows the text after its
 * last `\r`; `\r` at the very end, as in `\r\n` or a stopped progress bar, redraws nothing), and
 * `ERASE_LINE` right after a `\r` blanks the line. Fed in pieces or whole, the result is the same;
 * it keeps only the last `maxLength` characters.
 */
export class LineDisplay {
  private shown = '';
  private returnPending = false;
  private sawText = false;

  constructor(private readonly maxLength: number) {}

  /** The line as shown now. */
  get text(): string {
    return this.shown;
  }

  /** Whether any printable character arrived (the line is more than returns and erasures). */
  get hasText(): boolean {
    return this.sawText;
  }

  add(text: string): void {
    let start = 0;
    SPECIAL.lastIndex = 0;
    for (;;) {
      const match = SPECIAL.exec(text);
      const end = match === null ? text.length : match.index;
      if (end > start) {
        if (this.returnPending) this.shown = '';
        this.returnPending = false;
        this.sawText = true;
        this.shown = keepEnd(this.shown + text.slice(start, end), this.maxLength);
      }
      if (match === null) return;
      if (match[0] === ERASE_LINE) {
        if (this.returnPending) this.shown = '';
      } else {
        this.returnPending = true;
      }
      start = end + 1;
    }
  }

  copy(): LineDisplay {
    const copy = new LineDisplay(this.maxLength);
    copy.shown = this.shown;
    copy.returnPending = this.returnPending;
    copy.sawText = this.sawText;
    return copy;
  }
}

/** One line's display, in one go. */
export function displayLine(text: string, maxLength: number): LineDisplay {
  const display = new LineDisplay(maxLength);
  display.add(text);
  return display;
}
