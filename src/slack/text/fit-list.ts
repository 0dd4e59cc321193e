import { formatNumber } from './format.js';
import { truncate } from './truncate.js';

export interface FitListOptions {
  /** At most this many items are shown. */
  maxItems: number;
  /** The shown items joined by `separator` stay within this many characters. */
  maxChars: number;
  /** Counted between items; default `\n`. */
  separator?: string;
}

export interface FittedList {
  shown: string[];
  omitted: number;
  /** `showing 40 of 300`, present only when something was left out. */
  note?: string;
}

/**
 * Renders items from the first until either limit is reached (a 300-job build, a 100-branch list).
 * `render` is called only for items that are considered. The note is not part of the budget: put it
 * where it fits (a context block, a last line). An item that alone exceeds `maxChars` is cut when
 * it is the first, so something is always shown when there is something to show.
 */
export function fitList<T>(
  items: readonly T[],
  render: (item: T, index: number) => string,
  options: FitListOptions,
): FittedList {
  const separator = options.separator ?? '\n';
  const shown: string[] = [];
  let used = 0;
  for (const [index, item] of items.entries()) {
    if (shown.length >= options.maxItems) break;
    const line = render(item, index);
    const cost = (shown.length > 0 ? separator.length : 0) + line.length;
    if (used + cost > options.maxChars) {
      if (shown.length === 0 && options.maxChars > 0) shown.push(truncate(line, options.maxChars));
      break;
    }
    shown.push(line);
    used += cost;
  }
  const omitted = items.length - shown.length;
  if (omitted === 0) return { shown, omitted };
  return { shown, omitted, note: `showing ${formatNumber(shown.length)} of ${formatNumber(items.length)}` };
}
