import type { Block } from '../reply.js';
import { MAX_BLOCKS_PER_MESSAGE, MAX_TOTAL_BLOCK_TEXT } from '../text/limits.js';
import { context } from './blocks.js';

/**
 * Characters of text a block contributes to Slack's per-message total. Slack counts every text
 * object, not only the visible section text: button labels, select options and placeholders and
 * confirm dialogs count too, so a card with many buttons is measured as Slack measures it.
 */
export function blockTextLength(block: Block): number {
  return textLength(block);
}

function textLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((n, item) => n + textLength(item), 0);
  if (typeof value !== 'object' || value === null) return 0;
  let total = 0;
  for (const [key, child] of Object.entries(value)) {
    if (key === 'text' && typeof child === 'string') {
      const type = (value as { type?: unknown }).type;
      if (type === 'plain_text' || type === 'mrkdwn') total += child.length;
    } else {
      total += textLength(child);
    }
  }
  return total;
}

/**
 * The last line of defence for Slack's message limits: keeps blocks from the top while both the
 * block count and the total text fit, and says what was left out. View builders should fit their
 * own lists first (with a meaningful "showing N of M"); this only guarantees nothing is refused.
 */
export function fitBlocks(blocks: Block[], limits: { maxBlocks?: number; maxText?: number } = {}): Block[] {
  const maxBlocks = limits.maxBlocks ?? MAX_BLOCKS_PER_MESSAGE;
  const maxText = limits.maxText ?? MAX_TOTAL_BLOCK_TEXT;
  const total = blocks.reduce((n, b) => n + blockTextLength(b), 0);
  if (blocks.length <= maxBlocks && total <= maxText) return blocks;

  const noteReserve = 80;
  const kept: Block[] = [];
  let used = 0;
  for (const block of blocks) {
    const cost = blockTextLength(block);
    if (kept.length + 1 >= maxBlocks || used + cost > maxText - noteReserve) break;
    kept.push(block);
    used += cost;
  }
  kept.push(context(`_Cut to fit Slack: showing ${kept.length} of ${blocks.length} parts of this message._`));
  return kept;
}
