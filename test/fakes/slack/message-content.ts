import { BLOCK_LIMITS, blocksTextLength, checkBlocks, formatProblem } from './block-kit.js';
import { fail, type Outcome, stringArg } from './outcome.js';
import type { Json } from './types.js';

const MAX_ATTACHMENTS = 100;

export interface MessageContent {
  /** Undefined when the call sent no text (chat.update then keeps the old one). */
  text?: string;
  blocks?: unknown[];
  attachments?: unknown[];
  truncated: boolean;
}

export type ContentCheck = { ok: true; content: MessageContent } | { ok: false; outcome: Outcome };

/** Checks the text, blocks and attachments of a message as chat.postMessage and friends do. */
export function checkMessageContent(args: Json): ContentCheck {
  const { blocks, attachments } = args;
  if (blocks !== undefined && !Array.isArray(blocks)) return rejected(fail('invalid_blocks_format'));
  if (attachments !== undefined && !Array.isArray(attachments)) return rejected(fail('invalid_attachments'));
  if (attachments !== undefined && attachments.length > MAX_ATTACHMENTS) {
    return rejected(fail('too_many_attachments'));
  }
  if (blocks !== undefined) {
    const problems = checkBlocks(blocks, 'message', '/blocks').map(formatProblem);
    if (problems.length > 0) {
      return rejected(
        fail('invalid_blocks', {
          errors: problems,
          response_metadata: { messages: problems.map((p) => `[ERROR] ${p}`) },
        }),
      );
    }
    if (blocksTextLength(blocks) > BLOCK_LIMITS.messageBlocksText)
      return rejected(fail('msg_blocks_too_long'));
  }
  const fullText = stringArg(args, 'text');
  const empty =
    (fullText === undefined || fullText === '') &&
    (blocks === undefined || blocks.length === 0) &&
    (attachments === undefined || attachments.length === 0);
  if (empty) return rejected(fail('no_text'));
  const truncated = fullText !== undefined && fullText.length > BLOCK_LIMITS.messageText;
  const content: MessageContent = { truncated };
  if (fullText !== undefined) content.text = fullText.slice(0, BLOCK_LIMITS.messageText);
  if (blocks !== undefined) content.blocks = blocks;
  if (attachments !== undefined) content.attachments = attachments;
  return { ok: true, content };
}

function rejected(outcome: Outcome): ContentCheck {
  return { ok: false, outcome };
}
