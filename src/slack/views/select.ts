import type { types } from '@slack/bolt';
import { type ActionSpec, encodeValue } from '../ids.js';
import { MAX_STATIC_SELECT_OPTIONS } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { type Confirmation, confirmation } from './blocks.js';

/**
 * A static select menu whose options each carry an encoded action value, handled by `onAction`
 * like a button (it reads the picked option's value). Texts are cut to Slack's limits.
 */

const MAX_OPTION_TEXT = 75;
const MAX_OPTION_VALUE = 150;
const MAX_PLACEHOLDER = 150;

export interface SelectOption<A extends ActionSpec> {
  text: string;
  value: Parameters<typeof encodeValue<A>>[1];
}

export interface SelectOptions {
  /** Distinguishes several menus of one action in one message. */
  suffix?: string;
  confirm?: Confirmation;
}

export function staticSelect<A extends ActionSpec>(
  action: A,
  placeholder: string,
  options: SelectOption<A>[],
  settings: SelectOptions = {},
): types.StaticSelect {
  const encoded = options.slice(0, MAX_STATIC_SELECT_OPTIONS).map((option) => {
    const value = encodeValue(action, option.value);
    if (value.length > MAX_OPTION_VALUE)
      throw new RangeError(`option value over ${MAX_OPTION_VALUE} characters`);
    return { text: { type: 'plain_text' as const, text: truncate(option.text, MAX_OPTION_TEXT) }, value };
  });
  const { confirm } = settings;
  return {
    type: 'static_select',
    action_id: settings.suffix ? `${action.id}:${settings.suffix}` : action.id,
    placeholder: { type: 'plain_text', text: truncate(placeholder, MAX_PLACEHOLDER) },
    options: encoded,
    ...(confirm ? { confirm: confirmation(confirm) } : {}),
  };
}
