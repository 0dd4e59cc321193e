import assert from 'node:assert/strict';
import { BLOCK_LIMITS, blocksTextLength, checkBlocks, checkView } from '../fakes/slack/block-kit.js';
import type { Harness } from './app-harness.js';

/** Reading what the app sent to Slack, and checking that Slack would take it. */

/** A message or view as the app sent it. */
export type Message = Record<string, unknown>;

/** A button or menu as the app built it. */
export interface FoundElement {
  type: string;
  action_id: string;
  value?: string;
  url?: string;
  style?: string;
  options?: { value: string; text: { text: string } }[];
  confirm?: { title?: { text?: string }; text?: { text?: string }; confirm?: { text?: string } };
}

/** Every button and menu of a message or view: actions blocks' elements and section accessories. */
export function elementsOf(message: Message): FoundElement[] {
  const blocks = Array.isArray(message.blocks) ? (message.blocks as Message[]) : [];
  return blocks.flatMap((block) => {
    const candidates = [
      ...(block.type === 'actions' ? (block.elements as Message[]) : []),
      ...(block.accessory ? [block.accessory as Message] : []),
    ];
    return candidates.filter((e) => typeof e.action_id === 'string') as unknown as FoundElement[];
  });
}

/** The action_id of each of those elements, in order. */
export function actionIds(blocks: unknown): string[] {
  return elementsOf({ blocks }).map((e) => e.action_id);
}

/** Whether the action `id` (`id` or `id:<suffix>`) is among them. */
export function hasElement(message: Message, id: string): boolean {
  return elementsOf(message).some((e) => e.action_id === id || e.action_id.startsWith(`${id}:`));
}

/** The first element of the action `id` (`id` or `id:<suffix>`); the test fails without one. */
export function elementOf(message: Message, id: string): FoundElement {
  const found = elementsOf(message).find((e) => e.action_id === id || e.action_id.startsWith(`${id}:`));
  assert.ok(found, `no ${id} element in ${JSON.stringify(message.blocks)}`);
  return found;
}

/**
 * The text a reader sees, one piece per line: the message text and every text object (not button
 * values), which is where an injection would act.
 */
export function shownText(message: Message): string {
  const texts: string[] = typeof message.text === 'string' ? [message.text] : [];
  collectTexts(message.blocks, ['mrkdwn', 'plain_text'], texts);
  return texts.join('\n');
}

/** Every mrkdwn text of some blocks (where Slack reads mentions and formatting), one per line. */
export function mrkdwnTexts(blocks: unknown): string {
  const texts: string[] = [];
  collectTexts(blocks, ['mrkdwn'], texts);
  return texts.join('\n');
}

function collectTexts(value: unknown, types: readonly string[], into: string[]): void {
  if (Array.isArray(value)) {
    for (const item of value) collectTexts(item, types, into);
  } else if (typeof value === 'object' && value !== null) {
    const record = value as Message;
    if (types.includes(String(record.type)) && typeof record.text === 'string') into.push(record.text);
    for (const child of Object.values(record)) collectTexts(child, types, into);
  }
}

/** Slack would take these blocks as one message: each block, their number and their total text. */
export function assertFitsMessage(blocks: unknown): void {
  assert.ok(Array.isArray(blocks), 'the message has blocks');
  assert.deepEqual(checkBlocks(blocks, 'message', '/blocks'), []);
  assert.ok(blocks.length <= BLOCK_LIMITS.messageBlocks, `${blocks.length} blocks`);
  const text = blocksTextLength(blocks);
  assert.ok(text <= BLOCK_LIMITS.messageBlocksText, `${text} characters of block text`);
}

export function assertFitsModal(view: unknown): void {
  assert.deepEqual(checkView(view, 'modal'), []);
}

/** Nothing the app sent was refused by the fake Slack: neither Web API calls nor response_url posts. */
export function assertSlackAccepted(h: Harness): void {
  assert.deepEqual(h.slack.rejected(), []);
  assert.deepEqual(
    h.slack.responses.filter((r) => !r.ok).map((r) => r.error),
    [],
  );
}
