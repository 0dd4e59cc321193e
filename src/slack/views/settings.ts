import type { RepoSettings } from '../../ci/schemas.js';
import type { Deployment } from '../../config.js';
import type { SettingChange, SettingValue } from '../../ops/settings.js';
import { VIEWS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, mention } from '../text/escape.js';
import { MAX_BLOCKS_PER_VIEW, MAX_PRIVATE_METADATA } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { context, section } from './blocks.js';
import { INPUT_ACTION_ID, type ModalView, modal } from './modal.js';
import { infoModal, waitingModal } from './modal-states.js';
import { repoLink, type Site } from './site.js';

/**
 * The repository settings editor: whatever keys the service returns, booleans as checkboxes and
 * numbers as number inputs (strings as text inputs). The values shown travel in private_metadata, so
 * the submission can PATCH only what the user changed.
 */

/** The editor's title, kept while loading, saving and after. */
export const SETTINGS_TITLE = 'Repository settings';
/** Known keys get a sentence; any other key is shown as its name. */
const LABELS: Readonly<Record<string, { label: string; hint?: string }>> = {
  builds_only_with_travis_yml: { label: 'Build only if .travis.yml is present' },
  build_pushes: { label: 'Build pushed branches' },
  build_pull_requests: { label: 'Build pushed pull requests' },
  maximum_number_of_builds: { label: 'Limit concurrent jobs', hint: '0 means no limit.' },
  auto_cancel_pushes: { label: 'Auto cancel branch builds' },
  auto_cancel_pull_requests: { label: 'Auto cancel pull request builds' },
};
/** Keys safe in a block_id and an option value; others are shown but not editable here. */
const EDITABLE_KEY = /^[A-Za-z0-9_.-]{1,100}$/;
const CHECKBOXES_PER_GROUP = 10;
const FLAGS_BLOCK = 'settings.flags';
const VALUE_BLOCK = 'settings.value.';
/** Room left in private_metadata for the values shown, after the other fields. */
const METADATA_BUDGET = MAX_PRIVATE_METADATA - 500;

export function settingLabel(key: string): string {
  return LABELS[key]?.label ?? key.replace(/_/g, ' ');
}

export interface SettingsMetadata {
  d: Deployment;
  /** Repository id and slug. */
  id: number;
  r: string;
  q: boolean;
  c?: string;
  /** The editable values as shown: the submission compares against these. */
  o: Record<string, SettingValue>;
}

export function settingsMessageModal(mrkdwn: string): ModalView {
  return infoModal(SETTINGS_TITLE, [section(mrkdwn)]);
}

export function settingsSavingModal(repoSlug: string): ModalView {
  return waitingModal(SETTINGS_TITLE, `Saving the settings of *${escapeMrkdwn(repoSlug)}*`);
}

export interface SettingsEditorInput {
  site: Site;
  repoId: number;
  repoSlug: string;
  settings: RepoSettings;
  quiet: boolean;
  channelId: string | undefined;
}

export function settingsEditorModal(input: SettingsEditorInput): ModalView {
  const shown: Record<string, SettingValue> = {};
  const readOnly: string[] = [];
  let budget = METADATA_BUDGET;
  for (const [key, value] of Object.entries(input.settings)) {
    const cost = JSON.stringify({ [key]: value }).length;
    if (value === null || !EDITABLE_KEY.test(key) || cost > budget) {
      readOnly.push(
        `${inlineCode(truncate(key, 100))}: ${value === null ? 'not set' : inlineCode(truncate(String(value), 100))}`,
      );
      continue;
    }
    shown[key] = value;
    budget -= cost;
  }
  const flags = Object.keys(shown).filter((k) => typeof shown[k] === 'boolean');
  const others = Object.keys(shown).filter((k) => typeof shown[k] !== 'boolean');

  const blocks: Block[] = [section(`Build settings of ${repoLink(input.site, input.repoSlug)}.`)];
  for (let i = 0; i < flags.length; i += CHECKBOXES_PER_GROUP) {
    blocks.push(
      checkboxGroup(
        `${FLAGS_BLOCK}.${i / CHECKBOXES_PER_GROUP}`,
        flags.slice(i, i + CHECKBOXES_PER_GROUP),
        shown,
        i === 0,
      ),
    );
  }
  // Each other value is one block; keep room for the notes below.
  const room = MAX_BLOCKS_PER_VIEW - blocks.length - 2;
  for (const key of others.slice(0, room)) blocks.push(valueInput(key, shown[key]));
  for (const key of others.slice(room)) {
    delete shown[key];
    readOnly.push(`${inlineCode(key)}: ${inlineCode(String(input.settings[key]))}`);
  }
  if (readOnly.length > 0) {
    blocks.push(context(truncate(`Not editable here: ${readOnly.join(', ')}`, 2_000)));
  }
  if (Object.keys(shown).length === 0) {
    return settingsMessageModal(
      `${repoLink(input.site, input.repoSlug)} has no settings that can be edited here.`,
    );
  }
  const metadata: SettingsMetadata = {
    d: input.site.deployment,
    id: input.repoId,
    r: input.repoSlug,
    q: input.quiet,
    ...(input.channelId ? { c: input.channelId } : {}),
    o: shown,
  };
  return modal({
    callbackId: VIEWS.settings,
    title: SETTINGS_TITLE,
    submit: 'Save',
    close: 'Cancel',
    blocks,
    metadata,
  });
}

function checkboxGroup(
  blockId: string,
  keys: string[],
  values: Record<string, SettingValue>,
  first: boolean,
): Block {
  const options = keys.map((key) => ({
    text: { type: 'plain_text' as const, text: truncate(settingLabel(key), 75) },
    description: { type: 'plain_text' as const, text: truncate(key, 75) },
    value: key,
  }));
  const initial = options.filter((o) => values[o.value] === true);
  return {
    type: 'input',
    block_id: blockId,
    optional: true,
    label: { type: 'plain_text', text: first ? 'Builds' : 'More settings' },
    element: {
      type: 'checkboxes',
      action_id: INPUT_ACTION_ID,
      options,
      ...(initial.length > 0 ? { initial_options: initial } : {}),
    },
  };
}

function valueInput(key: string, value: SettingValue | undefined): Block {
  const known = LABELS[key]?.hint;
  const hint = known ? `${known} (${key})` : key;
  const base = {
    type: 'input' as const,
    block_id: `${VALUE_BLOCK}${key}`,
    label: { type: 'plain_text' as const, text: truncate(settingLabel(key), 2_000) },
    hint: { type: 'plain_text' as const, text: truncate(hint, 2_000) },
  };
  if (typeof value === 'number') {
    return {
      ...base,
      element: {
        type: 'number_input',
        action_id: INPUT_ACTION_ID,
        is_decimal_allowed: !Number.isInteger(value),
        initial_value: String(value),
      },
    };
  }
  return {
    ...base,
    optional: true,
    element: {
      type: 'plain_text_input',
      action_id: INPUT_ACTION_ID,
      initial_value: String(value ?? ''),
      max_length: 3_000,
    },
  };
}

type StateValues = Record<
  string,
  Record<string, { value?: string | null; selected_options?: ReadonlyArray<{ value: string }> | null }>
>;

export type SettingsForm =
  | { ok: true; values: Record<string, SettingValue> }
  | { ok: false; errors: Record<string, string> };

/** The submitted values of the keys the editor showed; numbers are checked here, before the ack. */
export function readSettingsForm(values: StateValues, shown: Record<string, SettingValue>): SettingsForm {
  const selected = new Set<string>();
  for (const [blockId, block] of Object.entries(values)) {
    if (!blockId.startsWith(FLAGS_BLOCK)) continue;
    for (const option of block[INPUT_ACTION_ID]?.selected_options ?? []) selected.add(option.value);
  }
  const result: Record<string, SettingValue> = {};
  const errors: Record<string, string> = {};
  for (const [key, before] of Object.entries(shown)) {
    if (typeof before === 'boolean') {
      result[key] = selected.has(key);
      continue;
    }
    const blockId = `${VALUE_BLOCK}${key}`;
    const raw = values[blockId]?.[INPUT_ACTION_ID]?.value ?? '';
    if (typeof before === 'string') {
      result[key] = raw;
      continue;
    }
    const text = raw.trim();
    const number = Number(text);
    const whole = Number.isInteger(before);
    if (text === '' || !Number.isFinite(number) || (whole && !Number.isSafeInteger(number))) {
      errors[blockId] = whole ? 'Enter a whole number.' : 'Enter a number.';
    } else if (before >= 0 && number < 0) {
      errors[blockId] = 'Enter a number of 0 or more.';
    } else {
      result[key] = number;
    }
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, values: result };
}

function shownValue(value: SettingValue): string {
  if (typeof value === 'boolean') return value ? 'on' : 'off';
  if (typeof value === 'number') return String(value);
  return inlineCode(truncate(value, 100));
}

export function changesText(changes: readonly SettingChange[]): string {
  return changes
    .map((c) => `*${escapeMrkdwn(settingLabel(c.key))}* ${shownValue(c.from)} → ${shownValue(c.to)}`)
    .join(', ');
}

export function settingsAnnouncement(
  userId: string,
  repoSlug: string,
  changes: readonly SettingChange[],
  site: Site,
): SlackMessage {
  return {
    text: truncate(
      `${mention(userId)} changed the settings of ${repoLink(site, repoSlug)}: ${changesText(changes)}`,
      3_000,
    ),
  };
}

export function settingsSavedModal(
  repoSlug: string,
  changes: readonly SettingChange[],
  site: Site,
): ModalView {
  return settingsMessageModal(
    truncate(
      `:white_check_mark: Saved the settings of ${repoLink(site, repoSlug)}: ${changesText(changes)}`,
      3_000,
    ),
  );
}
