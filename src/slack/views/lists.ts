import type { Block } from '../reply.js';
import { fitList } from '../text/fit-list.js';
import { MAX_SECTION_TEXT } from '../text/limits.js';
import { context, section } from './blocks.js';

/**
 * Long lists in one message: cut with `fitList` (a "showing N of M" note says what was left out),
 * then packed into as few sections as their text allows, so a 300-item list costs a few blocks of
 * Slack's 50 instead of one each.
 */

/**
 * Lines joined with newlines into as few chunks of at most `maxChars` as they fit, in order and
 * never splitting a line (a longer line stands alone, for its block to cut).
 */
export function packLines(lines: readonly string[], maxChars: number): string[] {
  const chunks: string[] = [];
  let current: string | undefined;
  for (const line of lines) {
    if (current !== undefined && current.length + 1 + line.length > maxChars) {
      chunks.push(current);
      current = undefined;
    }
    current = current === undefined ? line : `${current}\n${line}`;
  }
  if (current !== undefined) chunks.push(current);
  return chunks;
}

/** Lines of mrkdwn (already fitted) as sections of at most `maxChars` each. */
export function lineSections(lines: readonly string[], maxChars = MAX_SECTION_TEXT): Block[] {
  return packLines(lines, maxChars).map((chunk) => section(chunk));
}

export interface ListOptions {
  maxItems: number;
  /** Characters of all shown lines together. */
  maxChars: number;
  /** What the items are, for the note under a cut list: "showing 40 of 100 branches". */
  noun: string;
  /** What to say under a list that was not cut ("3 accounts"); nothing when absent. */
  whole?: string;
}

/** Items rendered as mrkdwn lines, cut to fit, packed into sections, with the note under them. */
export function listBlocks<T>(
  items: readonly T[],
  render: (item: T) => string,
  options: ListOptions,
): Block[] {
  const fitted = fitList(items, render, { maxItems: options.maxItems, maxChars: options.maxChars });
  const blocks = lineSections(fitted.shown);
  if (fitted.note) blocks.push(context(`_${fitted.note} ${options.noun}_`));
  else if (options.whole) blocks.push(context(`_${options.whole}_`));
  return blocks;
}
