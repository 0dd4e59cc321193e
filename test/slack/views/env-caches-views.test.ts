import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { shownVar } from '../../../src/ops/env-vars.js';
import { formatBytes } from '../../../src/slack/text/format.js';
import { cachesDeletePrompt, cachesMessage } from '../../../src/slack/views/caches.js';
import { envListMessage, envSetModal, envUnsetPrompt } from '../../../src/slack/views/env.js';
import { assertFitsMessage, assertFitsModal } from '../../helpers/slack-messages.js';
import { cache, NOW, repository, SITE } from '../../helpers/view-data.js';

interface Confirmable {
  action_id?: string;
  confirm?: { text: { text: string } };
}

function buttons(blocks: unknown): Confirmable[] {
  const found: Confirmable[] = [];
  for (const block of blocks as Array<{ accessory?: Confirmable; elements?: Confirmable[] }>) {
    if (block.accessory) found.push(block.accessory);
    for (const element of block.elements ?? []) if (element.action_id) found.push(element);
  }
  return found;
}

describe('environment variable views', () => {
  const vars = [
    shownVar({ id: 'a-1', name: 'SECRET', value: 'never-shown', public: false }),
    shownVar({ id: 'a-2', name: 'DEBUG', value: 'true', public: true }),
  ];

  it('lists names, public values, and masks private ones; every Unset button confirms', () => {
    const message = envListMessage(repository(), vars, SITE);
    const text = JSON.stringify(message);
    assert.doesNotMatch(text, /never-shown/);
    assert.match(text, /`SECRET` = _•••• \(private\)_/);
    assert.match(text, /`DEBUG` = `true`/);
    const unset = buttons(message.blocks);
    assert.equal(unset.length, 2);
    for (const button of unset) assert.match(button.confirm?.text.text ?? '', /will be deleted/);
    assertFitsMessage(message.blocks);
  });

  it('fits 300 long variables into one message with a note', () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      shownVar({
        id: `id-${i}`,
        name: `<!channel>_${'N'.repeat(300)}_${i}`,
        value: 'v'.repeat(1_000),
        public: true,
      }),
    );
    const message = envListMessage(repository(), many, SITE);
    assert.match(JSON.stringify(message), /showing \d+ of 300 variables/);
    assertFitsMessage(message.blocks);
  });

  it('leaves out the button of a variable whose id or name a button cannot carry', () => {
    const odd = [shownVar({ id: 'not a uuid!', name: 'ODD', public: false })];
    assert.equal(buttons(envListMessage(repository(), odd, SITE).blocks).length, 0);
  });

  it('the unset prompt has a Delete button with a confirmation dialog', () => {
    const prompt = envUnsetPrompt(
      repository(),
      vars[0] ?? shownVar({ id: 'x', name: 'X', public: false }),
      SITE,
      { quiet: true },
    );
    const [remove] = buttons(prompt.blocks);
    assert.match(remove?.confirm?.text.text ?? '', /`SECRET` will be deleted from rails\/rails/);
    assert.match(JSON.stringify(prompt), /\\"q\\":true/);
  });

  it('the set modal holds no value, fixes the name and says private or public', () => {
    const input = {
      site: SITE,
      repo: 'rails/rails',
      name: 'TOKEN',
      public: false,
      quiet: false,
      channelId: 'C1',
    };
    const modal = envSetModal(input);
    assertFitsModal(modal);
    assert.match(JSON.stringify(modal.blocks), /Private/);
    assert.doesNotMatch(JSON.stringify(modal.blocks), /initial_value/);
    assert.deepEqual(JSON.parse(modal.private_metadata ?? ''), {
      d: 'com',
      r: 'rails/rails',
      n: 'TOKEN',
      p: false,
      q: false,
      c: 'C1',
    });
    assert.match(JSON.stringify(envSetModal({ ...input, public: true }).blocks), /Public/);
  });
});

describe('cache views', () => {
  it('formats sizes', () => {
    assert.equal(formatBytes(0), '0 B');
    assert.equal(formatBytes(1536), '1.5 KB');
    assert.equal(formatBytes(18_874_368), '18 MB');
    assert.equal(formatBytes(5 * 1024 ** 3), '5 GB');
  });

  it('the delete dialog repeats the filter, the count and the size', () => {
    const caches = [cache(0), cache(1)];
    const prompt = cachesDeletePrompt(
      { repo: repository(), caches, bytes: 3 * 1024 * 1024 },
      { branch: 'main', match: 'rvm' },
      SITE,
      { quiet: false },
    );
    const [remove] = buttons(prompt.blocks);
    assert.equal(
      remove?.confirm?.text.text,
      'This deletes 2 caches (3 MB) of rails/rails on branch `main` whose names contain `rvm`.',
    );
  });

  it('500 caches with hostile names fit, escaped, with a note', () => {
    const caches = Array.from({ length: 500 }, (_, i) =>
      cache(i, { slug: `<!here>${'s'.repeat(200)}`, branch: '<!channel>' }),
    );
    const message = cachesMessage({ repo: repository(), caches, bytes: 123 }, {}, SITE, NOW);
    const text = JSON.stringify(message);
    assert.match(text, /showing \d+ of 500 caches/);
    assert.doesNotMatch(text.replace(/"value":"[^"]*"/g, ''), /<!here>|<!channel>/);
    assertFitsMessage(message.blocks);
  });
});
