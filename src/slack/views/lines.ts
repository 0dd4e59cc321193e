import type { Block } from '../reply.js';
import { fitList } from '../text/fit-list.js';
import { MAX_SECTION_TEXT } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { context, section } from './blocks.js';

/**
 * A list of mrkdwn lines as message blocks: cut to fit (at most `maxItems` lines and `maxChars`
 * characters, with a "showing N of M <noun>" note), then packed into sections of at most 3,000
 * characters each, so a 100-item list stays inside Slack's per-message limits.
 */
export function listBlocks<T>(
  items: readonly T[],
  render: (item: T) => string,
  options: { maxItems: number; maxChars: number; noun: string },
): Block[] {
  const fitted = fitList(items, render, { maxItems: options.maxItems, maxChars: options.maxChars });
  const blocks = packSections(fitted.shown);
  if (fitted.note) blocks.push(context(`_${fitted.note} ${options.noun}_`));
  return blocks;
}

function packSections(lines: readonly string[]): Block[] {
  const blocks: Block[] = [];
  let current = '';
  for (const line of lines) {
    if (current !== '' && current.length + 1 + line.length > MAX_SECTION_TEXT) {
      blocks.push(section(current));
      current = '';
    }
    current = current === '' ? line : `${current}\n${line}`;
  }
  if (current !== '') blocks.push(section(current));
  return blocks;
}

/** First line of a commit message, cut (not escaped: the caller escapes). */
export function subjectOf(message: string | null | undefined, max = 70): string | undefined {
  const first = message?.split('\n', 1)[0]?.trim();
  return first ? truncate(first, max) : undefined;
}

/**
 * Characters of text a block shows, confirmation dialogs and button labels included: what Slack
 * counts toward its ~12,000 characters per message (fitBlocks counts only section and context text).
 */
export function shownTextLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((n, item) => n + shownTextLength(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  const record = value as Record<string, unknown>;
  const own =
    (record.type === 'mrkdwn' || record.type === 'plain_text') && typeof record.text === 'string'
      ? record.text.length
      : 0;
  return Object.values(record).reduce<number>((n, child) => n + shownTextLength(child), own);
}
