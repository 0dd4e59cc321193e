import type { types } from '@slack/bolt';
import type { Block } from '../reply.js';
import { MAX_PRIVATE_METADATA } from '../text/limits.js';
import { truncate } from '../text/truncate.js';

/** Modal primitives. Titles and button texts are cut to Slack's 24 characters. */

export type ModalView = types.ModalView;

export interface ModalOptions {
  callbackId: string;
  title: string;
  blocks: Block[];
  submit?: string;
  close?: string;
  /** JSON-encoded; must stay under 3,000 characters (checked). */
  metadata?: object;
}

export function modal(options: ModalOptions): ModalView {
  const metadata = options.metadata ? JSON.stringify(options.metadata) : undefined;
  if (metadata && metadata.length > MAX_PRIVATE_METADATA) {
    throw new RangeError("private_metadata is over Slack's 3,000 characters");
  }
  return {
    type: 'modal',
    callback_id: options.callbackId,
    title: { type: 'plain_text', text: truncate(options.title, 24) },
    ...(options.submit ? { submit: { type: 'plain_text', text: truncate(options.submit, 24) } } : {}),
    close: { type: 'plain_text', text: truncate(options.close ?? 'Close', 24) },
    blocks: options.blocks,
    ...(metadata ? { private_metadata: metadata } : {}),
  };
}

export interface TextInputOptions {
  blockId: string;
  label: string;
  hint?: string;
  placeholder?: string;
  optional?: boolean;
  multiline?: boolean;
  initial?: string;
  maxLength?: number;
}

/** The value is read back from `view.state.values[blockId].value.value`. */
export const INPUT_ACTION_ID = 'value';

export function textInput(o: TextInputOptions): Block {
  return {
    type: 'input',
    block_id: o.blockId,
    optional: o.optional ?? false,
    label: { type: 'plain_text', text: truncate(o.label, 2000) },
    ...(o.hint ? { hint: { type: 'plain_text' as const, text: truncate(o.hint, 2000) } } : {}),
    element: {
      type: 'plain_text_input',
      action_id: INPUT_ACTION_ID,
      multiline: o.multiline ?? false,
      ...(o.placeholder
        ? { placeholder: { type: 'plain_text' as const, text: truncate(o.placeholder, 150) } }
        : {}),
      ...(o.initial !== undefined ? { initial_value: o.initial } : {}),
      ...(o.maxLength ? { max_length: o.maxLength } : {}),
    },
  };
}

/** Reads a text input's value from a submitted view's state; empty strings count as missing. */
export function inputValue(
  values: Record<string, Record<string, { value?: string | null }>> | undefined,
  blockId: string,
): string | undefined {
  const value = values?.[blockId]?.[INPUT_ACTION_ID]?.value;
  return value === null || value === undefined || value.trim() === '' ? undefined : value;
}
