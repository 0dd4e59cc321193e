import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACTIONS } from '../../../src/slack/ids.js';
import { actions, button, section } from '../../../src/slack/views/blocks.js';
import { blockTextLength, fitBlocks } from '../../../src/slack/views/fit-blocks.js';
import { blocksTextLength } from '../../fakes/slack/block-kit.js';

describe('measuring block text', () => {
  it('counts every text object as Slack does: buttons, confirm dialogs and accessories too', () => {
    const blocks = [
      section('abc', button(ACTIONS.showBuild, 'Details', { d: 'com', id: 1 })),
      ...actions([
        button(
          ACTIONS.cancelBuild,
          'Cancel',
          { d: 'com', id: 1 },
          { confirm: { title: 'Sure?', text: 'It stops.', confirm: 'Yes' } },
        ),
      ]),
    ];
    const measured = blocks.reduce((n, b) => n + blockTextLength(b), 0);
    assert.equal(
      measured,
      'abc'.length + 'Details'.length + 'Cancel'.length + 'Sure?It stops.YesCancel'.length,
    );
    assert.equal(measured, blocksTextLength(blocks));
  });

  it('cuts a message whose section texts fit but whose buttons push it over the limit', () => {
    const rows = Array.from({ length: 40 }, (_, i) =>
      section(
        'x'.repeat(200),
        button(ACTIONS.showBuild, 'y'.repeat(75), { d: 'com', id: i + 1 }, { suffix: String(i) }),
      ),
    );
    const fitted = fitBlocks(rows, { maxText: 9_000 });
    assert.ok(blocksTextLength(fitted) <= 9_000);
    assert.match(JSON.stringify(fitted.at(-1)), /Cut to fit Slack/);
  });
});
