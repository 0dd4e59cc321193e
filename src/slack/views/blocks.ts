import type { types } from '@slack/bolt';
import { type ActionSpec, encodeValue } from '../ids.js';
import type { Block } from '../reply.js';
import {
  MAX_ACTIONS_ELEMENTS,
  MAX_BUTTON_TEXT,
  MAX_FIELD_TEXT,
  MAX_HEADER_TEXT,
  MAX_SECTION_FIELDS,
  MAX_SECTION_TEXT,
} from '../text/limits.js';
import { truncate } from '../text/truncate.js';

/**
 * Block Kit primitives. Each one cuts its text to Slack's limit, so a view builder can never
 * produce a block Slack refuses. Text passed in as mrkdwn must already be escaped
 * (`escapeMrkdwn`) where it comes from outside.
 */

export type Button = types.Button;

export function section(mrkdwn: string, accessory?: Button): Block {
  return {
    type: 'section',
    text: { type: 'mrkdwn', text: truncate(mrkdwn || ' ', MAX_SECTION_TEXT) },
    ...(accessory ? { accessory } : {}),
  };
}

export function fields(items: string[], text?: string): Block {
  return {
    type: 'section',
    ...(text ? { text: { type: 'mrkdwn' as const, text: truncate(text, MAX_SECTION_TEXT) } } : {}),
    fields: items
      .slice(0, MAX_SECTION_FIELDS)
      .map((f) => ({ type: 'mrkdwn' as const, text: truncate(f || ' ', MAX_FIELD_TEXT) })),
  };
}

export function header(text: string): Block {
  return {
    type: 'header',
    text: { type: 'plain_text', text: truncate(text || ' ', MAX_HEADER_TEXT), emoji: true },
  };
}

/** Small grey text; at most 10 elements. */
export function context(...mrkdwn: string[]): Block {
  return {
    type: 'context',
    elements: mrkdwn
      .slice(0, 10)
      .map((t) => ({ type: 'mrkdwn' as const, text: truncate(t || ' ', MAX_SECTION_TEXT) })),
  };
}

export function divider(): Block {
  return { type: 'divider' };
}

export interface Confirmation {
  title: string;
  text: string;
  confirm: string;
  deny?: string;
}

export interface ButtonOptions {
  style?: 'primary' | 'danger';
  /** Slack shows this dialog before the click is sent. */
  confirm?: Confirmation;
  /** Distinguishes several buttons of one action in one message (Slack wants unique action_ids). */
  suffix?: string;
}

export function button<A extends ActionSpec>(
  action: A,
  text: string,
  value: Parameters<typeof encodeValue<A>>[1],
  options: ButtonOptions = {},
): Button {
  return {
    type: 'button',
    action_id: options.suffix ? `${action.id}:${options.suffix}` : action.id,
    text: { type: 'plain_text', text: truncate(text, MAX_BUTTON_TEXT), emoji: true },
    value: encodeValue(action, value),
    ...(options.style ? { style: options.style } : {}),
    ...(options.confirm ? { confirm: confirmation(options.confirm) } : {}),
  };
}

/** The dialog Slack shows before a dangerous click is sent (buttons and menus). */
export function confirmation(c: Confirmation): types.ConfirmationDialog {
  return {
    title: { type: 'plain_text', text: truncate(c.title, 100) },
    text: { type: 'mrkdwn', text: truncate(c.text, 300) },
    confirm: { type: 'plain_text', text: truncate(c.confirm, 30) },
    deny: { type: 'plain_text', text: truncate(c.deny ?? 'Cancel', 30) },
    style: 'danger',
  };
}

/** One or more actions blocks (Slack allows 25 elements per block). */
export function actions(elements: Array<Button | undefined>, blockId?: string): Block[] {
  const present = elements.filter((e): e is Button => e !== undefined);
  const blocks: Block[] = [];
  for (let i = 0; i < present.length; i += MAX_ACTIONS_ELEMENTS) {
    const suffix = i === 0 ? '' : `.${i / MAX_ACTIONS_ELEMENTS}`;
    blocks.push({
      type: 'actions',
      ...(blockId ? { block_id: `${blockId}${suffix}` } : {}),
      elements: present.slice(i, i + MAX_ACTIONS_ELEMENTS),
    });
  }
  return blocks;
}
