import { isRecord } from './outcome.js';

/**
 * Block Kit limits as Slack enforces them (docs.slack.dev "Block Kit" reference and
 * /work/shared/spec/slack-platform-notes.md). Each problem carries a JSON pointer the way Slack's
 * own `[ERROR] ... [json-pointer:/blocks/0/text/text]` messages do.
 */
export const BLOCK_LIMITS = {
  messageBlocks: 50,
  viewBlocks: 100,
  sectionText: 3000,
  sectionFields: 10,
  fieldText: 2000,
  headerText: 150,
  buttonText: 75,
  buttonValue: 2000,
  url: 3000,
  id: 255,
  actionsElements: 25,
  contextElements: 10,
  selectOptions: 100,
  optionText: 75,
  optionValue: 150,
  overflowOptions: 5,
  placeholder: 150,
  inputLabel: 2000,
  inputHint: 2000,
  imageAltText: 2000,
  viewTitle: 24,
  privateMetadata: 3000,
  /** Total text of a message's blocks before Slack answers `msg_blocks_too_long`. */
  messageBlocksText: 12000,
  /** Message `text` beyond this is cut. */
  messageText: 40000,
} as const;

export interface BlockProblem {
  pointer: string;
  message: string;
}

export type Surface = 'message' | 'view';

const KNOWN_BLOCKS = new Set([
  'section',
  'header',
  'divider',
  'context',
  'actions',
  'image',
  'input',
  'rich_text',
  'markdown',
  'video',
  'file',
  'table',
  'context_actions',
]);
const SELECTS_WITH_OPTIONS = new Set(['static_select', 'multi_static_select']);

class Checker {
  readonly problems: BlockProblem[] = [];

  add(pointer: string, message: string): void {
    this.problems.push({ pointer, message });
  }

  maxLength(value: unknown, max: number, pointer: string): void {
    if (typeof value === 'string' && value.length > max) {
      this.add(pointer, `must be less than ${max + 1} characters`);
    }
  }

  maxItems(value: unknown, max: number, pointer: string): void {
    if (Array.isArray(value) && value.length > max) this.add(pointer, `no more than ${max} items allowed`);
  }

  /** A text object: `{type: 'plain_text'|'mrkdwn', text}`, its text at most `max` characters. */
  text(value: unknown, max: number, pointer: string, plainOnly = false): void {
    if (value === undefined) return;
    if (!isRecord(value) || typeof value.text !== 'string') {
      this.add(pointer, 'must be a text object');
      return;
    }
    if (value.type !== 'plain_text' && value.type !== 'mrkdwn') {
      this.add(`${pointer}/type`, `unsupported type: ${String(value.type)}`);
    } else if (plainOnly && value.type !== 'plain_text') {
      this.add(`${pointer}/type`, 'must be plain_text');
    }
    this.maxLength(value.text, max, `${pointer}/text`);
  }
}

/** Problems with a `blocks` array on a message (50 blocks) or a view (100 blocks). */
export function checkBlocks(blocks: unknown, surface: Surface, pointer: string): BlockProblem[] {
  const check = new Checker();
  if (!Array.isArray(blocks)) {
    check.add(pointer, 'must be an array');
    return check.problems;
  }
  const maxBlocks = surface === 'message' ? BLOCK_LIMITS.messageBlocks : BLOCK_LIMITS.viewBlocks;
  check.maxItems(blocks, maxBlocks, pointer);
  const blockIds = new Set<string>();
  blocks.forEach((block, index) => {
    checkBlock(check, block, `${pointer}/${index}`, blockIds);
  });
  return check.problems;
}

function checkBlock(check: Checker, block: unknown, pointer: string, blockIds: Set<string>): void {
  if (!isRecord(block)) {
    check.add(pointer, 'must be an object');
    return;
  }
  if (typeof block.type !== 'string' || !KNOWN_BLOCKS.has(block.type)) {
    check.add(`${pointer}/type`, `unsupported type: ${String(block.type)}`);
    return;
  }
  if (typeof block.block_id === 'string') {
    check.maxLength(block.block_id, BLOCK_LIMITS.id, `${pointer}/block_id`);
    if (blockIds.has(block.block_id)) {
      check.add(`${pointer}/block_id`, `duplicate block_id: ${block.block_id} (block_id must be unique)`);
    }
    blockIds.add(block.block_id);
  }
  switch (block.type) {
    case 'section':
      checkSection(check, block, pointer);
      break;
    case 'header':
      check.text(block.text, BLOCK_LIMITS.headerText, `${pointer}/text`, true);
      break;
    case 'actions':
      checkActions(check, block, pointer);
      break;
    case 'context':
      check.maxItems(block.elements, BLOCK_LIMITS.contextElements, `${pointer}/elements`);
      break;
    case 'image':
      check.maxLength(block.image_url, BLOCK_LIMITS.url, `${pointer}/image_url`);
      check.maxLength(block.alt_text, BLOCK_LIMITS.imageAltText, `${pointer}/alt_text`);
      break;
    case 'input':
      check.text(block.label, BLOCK_LIMITS.inputLabel, `${pointer}/label`, true);
      check.text(block.hint, BLOCK_LIMITS.inputHint, `${pointer}/hint`, true);
      checkElement(check, block.element, `${pointer}/element`);
      break;
  }
}

function checkSection(check: Checker, block: Record<string, unknown>, pointer: string): void {
  if (block.text === undefined && block.fields === undefined) {
    check.add(pointer, 'must provide either text or fields');
  }
  check.text(block.text, BLOCK_LIMITS.sectionText, `${pointer}/text`);
  if (block.fields !== undefined) {
    if (!Array.isArray(block.fields)) {
      check.add(`${pointer}/fields`, 'must be an array');
    } else {
      check.maxItems(block.fields, BLOCK_LIMITS.sectionFields, `${pointer}/fields`);
      block.fields.forEach((field, index) => {
        check.text(field, BLOCK_LIMITS.fieldText, `${pointer}/fields/${index}`);
      });
    }
  }
  if (block.accessory !== undefined) checkElement(check, block.accessory, `${pointer}/accessory`);
}

function checkActions(check: Checker, block: Record<string, unknown>, pointer: string): void {
  if (!Array.isArray(block.elements)) {
    check.add(`${pointer}/elements`, 'must be an array');
    return;
  }
  check.maxItems(block.elements, BLOCK_LIMITS.actionsElements, `${pointer}/elements`);
  const actionIds = new Set<string>();
  block.elements.forEach((element, index) => {
    const elementPointer = `${pointer}/elements/${index}`;
    checkElement(check, element, elementPointer);
    if (isRecord(element) && typeof element.action_id === 'string') {
      if (actionIds.has(element.action_id)) {
        check.add(
          `${elementPointer}/action_id`,
          `duplicate action_id: ${element.action_id} (action_id must be unique within a block)`,
        );
      }
      actionIds.add(element.action_id);
    }
  });
}

function checkElement(check: Checker, element: unknown, pointer: string): void {
  if (!isRecord(element)) {
    check.add(pointer, 'must be an object');
    return;
  }
  check.maxLength(element.action_id, BLOCK_LIMITS.id, `${pointer}/action_id`);
  check.text(element.placeholder, BLOCK_LIMITS.placeholder, `${pointer}/placeholder`, true);
  if (element.type === 'button') {
    check.text(element.text, BLOCK_LIMITS.buttonText, `${pointer}/text`, true);
    check.maxLength(element.value, BLOCK_LIMITS.buttonValue, `${pointer}/value`);
    check.maxLength(element.url, BLOCK_LIMITS.url, `${pointer}/url`);
  } else if (typeof element.type === 'string' && SELECTS_WITH_OPTIONS.has(element.type)) {
    checkOptions(check, element.options, BLOCK_LIMITS.selectOptions, `${pointer}/options`);
    check.maxItems(element.option_groups, BLOCK_LIMITS.selectOptions, `${pointer}/option_groups`);
  } else if (element.type === 'overflow') {
    checkOptions(check, element.options, BLOCK_LIMITS.overflowOptions, `${pointer}/options`);
  }
}

function checkOptions(check: Checker, options: unknown, maxOptions: number, pointer: string): void {
  if (!Array.isArray(options)) return;
  check.maxItems(options, maxOptions, pointer);
  options.forEach((option, index) => {
    if (!isRecord(option)) {
      check.add(`${pointer}/${index}`, 'must be an object');
      return;
    }
    check.text(option.text, BLOCK_LIMITS.optionText, `${pointer}/${index}/text`);
    check.maxLength(option.value, BLOCK_LIMITS.optionValue, `${pointer}/${index}/value`);
    check.maxLength(option.url, BLOCK_LIMITS.url, `${pointer}/${index}/url`);
  });
}

/** Problems with a modal or Home tab payload; `expected` is the type the method accepts. */
export function checkView(view: unknown, expected: 'modal' | 'home' | 'any'): BlockProblem[] {
  if (!isRecord(view)) return [{ pointer: '/view', message: 'must be an object' }];
  const check = new Checker();
  if (view.type !== 'modal' && view.type !== 'home') {
    check.add('/view/type', `unsupported type: ${String(view.type)}`);
  } else if (expected !== 'any' && view.type !== expected) {
    check.add('/view/type', `must be ${expected}`);
  }
  if (view.type === 'modal') {
    if (view.title === undefined) check.add('/view/title', 'missing required field: title');
    check.text(view.title, BLOCK_LIMITS.viewTitle, '/view/title', true);
    check.text(view.submit, BLOCK_LIMITS.viewTitle, '/view/submit', true);
    check.text(view.close, BLOCK_LIMITS.viewTitle, '/view/close', true);
    const hasInput = Array.isArray(view.blocks) && view.blocks.some((b) => isRecord(b) && b.type === 'input');
    if (hasInput && view.submit === undefined) {
      check.add('/view/submit', 'must provide submit property when using input blocks');
    }
  }
  check.maxLength(view.private_metadata, BLOCK_LIMITS.privateMetadata, '/view/private_metadata');
  check.maxLength(view.callback_id, BLOCK_LIMITS.id, '/view/callback_id');
  check.maxLength(view.external_id, BLOCK_LIMITS.id, '/view/external_id');
  return [...check.problems, ...checkBlocks(view.blocks ?? [], 'view', '/view/blocks')];
}

/** Characters of text across all text objects (and rich text runs) of some blocks. */
export function blocksTextLength(value: unknown): number {
  if (Array.isArray(value)) return value.reduce<number>((sum, item) => sum + blocksTextLength(item), 0);
  if (!isRecord(value)) return 0;
  let own = 0;
  const isTextNode =
    value.type === 'plain_text' ||
    value.type === 'mrkdwn' ||
    value.type === 'text' ||
    value.type === 'markdown';
  if (isTextNode && typeof value.text === 'string') own = value.text.length;
  return Object.entries(value).reduce(
    (sum, [key, child]) =>
      key === 'text' && typeof child === 'string' ? sum : sum + blocksTextLength(child),
    own,
  );
}

export function formatProblem(problem: BlockProblem): string {
  return `${problem.message} [json-pointer:${problem.pointer}]`;
}
