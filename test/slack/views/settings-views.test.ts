import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { types } from '@slack/bolt';
import fc from 'fast-check';
import { changedSettings, type SettingValue } from '../../../src/ops/settings.js';
import {
  readSettingsForm,
  type SettingsMetadata,
  settingsAnnouncement,
  settingsEditorModal,
} from '../../../src/slack/views/settings.js';
import { DEFAULT_SETTINGS } from '../../fakes/ci/records.js';
import { assertFitsModal } from '../../helpers/slack-messages.js';
import { SITE } from '../../helpers/view-data.js';

type Values = Parameters<typeof readSettingsForm>[0];

/** What the service answers for a repository nobody changed. */
const DEFAULTS = DEFAULT_SETTINGS;

function editor(settings: Record<string, SettingValue | null>) {
  return settingsEditorModal({
    site: SITE,
    repoId: 891,
    repoSlug: 'rails/rails',
    settings,
    quiet: false,
    channelId: 'C1',
  });
}

/** What Slack submits when the user changes nothing. */
function untouched(view: ReturnType<typeof editor>): Values {
  const values: Values = {};
  for (const block of view.blocks) {
    if (block.type !== 'input' || !block.block_id) continue;
    const { element } = block as types.InputBlock;
    if (element.type === 'checkboxes') {
      const selected = (element.initial_options ?? []).map((o) => ({ value: String(o.value) }));
      values[block.block_id] = { value: { selected_options: selected } };
    } else if (element.type === 'number_input' || element.type === 'plain_text_input') {
      values[block.block_id] = { value: { value: element.initial_value ?? '' } };
    }
  }
  return values;
}

function metadataOf(view: ReturnType<typeof editor>): SettingsMetadata {
  return JSON.parse(view.private_metadata ?? '') as SettingsMetadata;
}

describe('settings editor', () => {
  it('shows the service’s keys with friendly labels and keeps what it showed in the metadata', () => {
    const view = editor(DEFAULTS);
    assertFitsModal(view);
    const text = JSON.stringify(view);
    assert.match(text, /Auto cancel branch builds/);
    assert.match(text, /Limit concurrent jobs/);
    assert.deepEqual(metadataOf(view), {
      d: 'com',
      id: 891,
      r: 'rails/rails',
      q: false,
      c: 'C1',
      o: DEFAULTS,
    });
  });

  it('reads back an untouched form as no change', () => {
    const view = editor(DEFAULTS);
    const form = readSettingsForm(untouched(view), metadataOf(view).o);
    assert.ok(form.ok);
    assert.deepEqual(changedSettings(DEFAULTS, form.values), []);
  });

  it('refuses numbers that are not whole or below zero', () => {
    const view = editor(DEFAULTS);
    const shown = metadataOf(view).o;
    for (const bad of ['1.5', 'abc', '', '-1']) {
      const values = untouched(view);
      values['settings.value.maximum_number_of_builds'] = { value: { value: bad } };
      const form = readSettingsForm(values, shown);
      assert.equal(form.ok, false, bad);
    }
  });

  it('any settings a service sends: the editor stays valid, fits, and reads back unchanged', () => {
    const key = fc.stringMatching(/^[a-z_<>!@ ]{1,40}$/);
    const value = fc.oneof(
      fc.boolean(),
      fc.nat({ max: 1_000_000 }),
      fc.string({ maxLength: 60 }),
      fc.constant(null),
    );
    fc.assert(
      fc.property(fc.dictionary(key, value, { maxKeys: 200 }), (settings) => {
        const view = editor({ ...DEFAULTS, ...settings });
        assertFitsModal(view);
        if (view.callback_id !== 'view.settings') return;
        const shown = metadataOf(view).o;
        const form = readSettingsForm(untouched(view), shown);
        assert.ok(form.ok, JSON.stringify(form));
        assert.deepEqual(changedSettings(shown, form.values), []);
        const blocks = JSON.stringify(view.blocks);
        // Raw values live only in inputs' values (plain text, never parsed for mentions); a JSON
        // string may hold escaped quotes, hence (?:[^"\\]|\\.)*.
        assert.doesNotMatch(blocks.replace(/"(value|initial_value)":"(?:[^"\\]|\\.)*"/g, ''), /<!|<@/);
      }),
      { numRuns: 150 },
    );
  });

  it('announces the changes in words', () => {
    const text = settingsAnnouncement(
      'U1',
      'rails/rails',
      [
        { key: 'build_pushes', from: true, to: false },
        { key: 'maximum_number_of_builds', from: 0, to: 4 },
      ],
      SITE,
    ).text;
    assert.equal(
      text,
      '<@U1> changed the settings of <https://app.travis-ci.com/github/rails/rails|rails/rails>: *Build pushed branches* on → off, *Limit concurrent jobs* 0 → 4',
    );
  });
});
