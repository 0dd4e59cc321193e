/**
 * Slack's Block Kit and message limits (see the Sizes section of the Slack platform notes).
 * Lengths are in characters, counted as JavaScript string length.
 */

export const MAX_BLOCKS_PER_MESSAGE = 50;
/** A modal or the App Home tab. */
export const MAX_BLOCKS_PER_VIEW = 100;
export const MAX_SECTION_TEXT = 3000;
export const MAX_SECTION_FIELDS = 10;
export const MAX_FIELD_TEXT = 2000;
/** `block_id`, `action_id` and `callback_id`. */
export const MAX_ID_LENGTH = 255;
export const MAX_BUTTON_VALUE = 2000;
export const MAX_BUTTON_TEXT = 75;
export const MAX_BUTTON_URL = 3000;
export const MAX_ACTIONS_ELEMENTS = 25;
export const MAX_HEADER_TEXT = 150;
export const MAX_PRIVATE_METADATA = 3000;
export const MAX_STATIC_SELECT_OPTIONS = 100;
/** Slack answers `msg_blocks_too_long` above about this much text across all blocks of a message. */
export const MAX_TOTAL_BLOCK_TEXT = 12000;
/** Message `text` is truncated by Slack above this. */
export const MAX_MESSAGE_TEXT = 40000;
