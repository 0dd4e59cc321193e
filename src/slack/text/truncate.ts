/**
 * Cutting text to a size. Cuts never split a UTF-16 surrogate pair (half an emoji) or one of the
 * entities `escapeMrkdwn` writes (`&amp;`, `&lt;`, `&gt;`), so text can be escaped first and cut
 * after, which is the order that keeps the result within its limit.
 */

export const ELLIPSIS = '…';

export type Keep = 'start' | 'end';

const ENTITIES = ['&amp;', '&lt;', '&gt;'];
const LONGEST_ENTITY = 5;

const isHighSurrogate = (code: number) => code >= 0xd800 && code <= 0xdbff;
const isLowSurrogate = (code: number) => code >= 0xdc00 && code <= 0xdfff;

/** The entity that starts before `index` and ends after it, if any: [start, end). */
function entityAround(text: string, index: number): [number, number] | undefined {
  for (let start = Math.max(0, index - LONGEST_ENTITY + 1); start < index; start++) {
    if (text[start] !== '&') continue;
    const entity = ENTITIES.find((e) => text.startsWith(e, start));
    if (entity && start + entity.length > index) return [start, start + entity.length];
  }
  return undefined;
}

/** Moves a cut position so that neither side holds half a surrogate pair or half an entity. */
function safeCut(text: string, index: number, direction: 'back' | 'forward'): number {
  let cut = index;
  if (
    cut > 0 &&
    cut < text.length &&
    isHighSurrogate(text.charCodeAt(cut - 1)) &&
    isLowSurrogate(text.charCodeAt(cut))
  ) {
    cut += direction === 'back' ? -1 : 1;
  }
  const entity = entityAround(text, cut);
  if (entity) cut = direction === 'back' ? entity[0] : entity[1];
  return cut;
}

/**
 * `text` when it fits in `maxChars`; otherwise its start (or end, with `keep: 'end'`) with `…` on
 * the cut side, at most `maxChars` long in total.
 */
export function truncate(text: string, maxChars: number, options: { keep?: Keep } = {}): string {
  if (text.length <= maxChars) return text;
  const room = Math.floor(maxChars) - ELLIPSIS.length;
  if (room < 0) return '';
  if (options.keep === 'end') {
    return ELLIPSIS + text.slice(safeCut(text, text.length - room, 'forward'));
  }
  return text.slice(0, safeCut(text, room, 'back')) + ELLIPSIS;
}

export interface TruncatedLines {
  text: string;
  /** How many lines were left out (0 when everything fits). */
  omitted: number;
}

/**
 * At most `maxLines` lines of `text`, from its start or (with `keep: 'end'`) its end. Trailing
 * newlines do not count as lines. The caller says what was left out, using `omitted`.
 */
export function truncateLines(text: string, maxLines: number, options: { keep?: Keep } = {}): TruncatedLines {
  const lines = text.replace(/\n+$/, '').split('\n');
  const keep = Math.max(0, Math.floor(maxLines));
  if (lines.length <= keep) return { text: lines.join('\n'), omitted: 0 };
  const kept = options.keep === 'end' ? lines.slice(lines.length - keep) : lines.slice(0, keep);
  return { text: kept.join('\n'), omitted: lines.length - keep };
}
