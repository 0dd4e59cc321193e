import type { Block } from '../reply.js';
import { MAX_BLOCKS_PER_MESSAGE, MAX_TOTAL_BLOCK_TEXT } from '../text/limits.js';
import { context } from './blocks.js';

/** Characters of text a block contributes to Slack's per-message total. */
export function blockTextLength(block: Block): number {
  switch (block.type) {
    case 'section':
      return (block.text?.text.length ?? 0) + (block.fields ?? []).reduce((n, f) => n + f.text.length, 0);
    case 'header':
      return block.text.text.length;
    case 'context':
      return block.elements.reduce(
        (n, e) => n + ('text' in e && typeof e.text === 'string' ? e.text.length : 0),
        0,
      );
    default:
      return 0;
  }
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
