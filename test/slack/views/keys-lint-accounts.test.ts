import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import type { Account, Repository } from '../../../src/ci/schemas.js';
import { MAX_ASSIGNMENTS, secureYaml, ValueTooLongError } from '../../../src/ops/encrypt.js';
import type { EncryptOutcome } from '../../../src/ops/keys.js';
import { accountsMessage, permissionsMessage, reposMessage } from '../../../src/slack/views/accounts.js';
import {
  encryptResultModal,
  regenerateKeyOffer,
  sshKeyDeleteOffer,
  sshKeyMessage,
} from '../../../src/slack/views/keys.js';
import { lintResultMessage, lintResultModal } from '../../../src/slack/views/lint.js';
import { assertFitsMessage, assertFitsModal } from '../../helpers/slack-messages.js';
import { SITE } from '../../helpers/view-data.js';

/** The view builders on their own: Slack's limits, escaping and confirm dialogs, without a server. */

const INJECTION = '<!channel> <@U123> *bold* `code`';

describe('encryptResultModal', () => {
  it('splits many long secure values over code blocks that each fit, losing none', () => {
    // As long as the secure values of a 4096-bit key.
    const values = Array.from({ length: MAX_ASSIGNMENTS }, (_, i) => ({
      name: `VARIABLE_${i}`,
      secure: randomBytes(512).toString('base64'),
    }));
    const outcome: EncryptOutcome = {
      slug: 'octo/app',
      fingerprint: 'aa:bb',
      values,
      tooLong: [new ValueTooLongError('HUGE', 600, 501)],
    };
    const view = encryptResultModal(outcome);
    assertFitsModal(view);
    const text = JSON.stringify(view.blocks);
    for (const value of values) assert.ok(text.includes(value.secure), `${value.name} is shown whole`);
    const sections = JSON.parse(text) as Array<{ type: string; text?: { text: string } }>;
    const codeBlocks = sections.map((b) => b.text?.text ?? '').filter((t) => t.startsWith('```'));
    assert.ok(codeBlocks.length > 1, 'the snippet is split');
    const joined = codeBlocks.map((t) => t.slice(4, -4)).join('\n');
    assert.equal(joined, secureYaml(values), 'the blocks together are the whole snippet, in order');
    assert.match(text, /HUGE=… is 600 bytes/);
  });
});

describe('confirm dialogs', () => {
  it('key regeneration warns that every value encrypted with the old key stops working', () => {
    const message = regenerateKeyOffer({
      site: SITE,
      slug: 'octo/app',
      fingerprint: undefined,
      quiet: false,
    });
    assertFitsMessage(message.blocks);
    const text = JSON.stringify(message.blocks);
    assert.match(text, /"confirm":\{"title":\{"type":"plain_text","text":"Regenerate the key\?"\}/);
    assert.match(text, /Every value encrypted with the old key stops working/);
  });

  it('SSH key deletion asks first, and shows the description escaped', () => {
    const message = sshKeyDeleteOffer(
      { id: 1, slug: 'octo/app' },
      { description: INJECTION, fingerprint: 'aa:bb' },
      SITE,
      { quiet: true },
    );
    assertFitsMessage(message.blocks);
    const text = JSON.stringify(message.blocks);
    assert.match(text, /"title":\{"type":"plain_text","text":"Delete the SSH key\?"\}/);
    assert.match(text, /&lt;!channel&gt; &lt;@U123&gt;/);
    assert.doesNotMatch(text, /<!channel>|<@U123>/);
  });

  it('a repository without a custom key gets no Delete button', () => {
    const message = sshKeyMessage({ id: 1, slug: 'octo/app' }, undefined, SITE);
    assert.doesNotMatch(JSON.stringify(message.blocks), /sshkey\.delete/);
  });
});

describe('lint results', () => {
  it('fit a message and a modal however many and however long the warnings are', () => {
    const warnings = Array.from({ length: 500 }, (_, i) => ({
      key: ['deploy', String(i), INJECTION],
      message: `${INJECTION} ${'very long explanation '.repeat(100)}`,
    }));
    const message = lintResultMessage(warnings);
    assertFitsMessage(message.blocks);
    assertFitsModal(lintResultModal(warnings));
    const text = JSON.stringify(message.blocks);
    assert.match(text, /500 warnings/);
    assert.match(text, /showing \d+ of 500 warnings/);
    assert.doesNotMatch(text, /<!channel>/);
  });
});

describe('account views', () => {
  const repo = (i: number): Repository => ({
    id: i,
    slug: `owner/repo-${i}`,
    description: `${INJECTION} ${'words '.repeat(50)}`,
    last_build_number: String(i),
    last_build_state: 'passed',
    last_build_finished_at: '2024-01-01T00:00:00Z',
    active: i % 2 === 0,
  });

  it('a 300-repository list fits one message and says what it shows', () => {
    const message = reposMessage({
      repos: Array.from({ length: 300 }, (_, i) => repo(i + 1)),
      search: {},
      login: 'me',
      site: SITE,
      now: new Date('2024-02-01T00:00:00Z'),
    });
    assertFitsMessage(message.blocks);
    const text = JSON.stringify(message.blocks);
    assert.match(text, /showing \d+ of 300 repositories/);
    assert.doesNotMatch(text, /<!channel>/);
  });

  it('300 accounts with hostile names fit and are escaped', () => {
    const accounts: Account[] = Array.from({ length: 300 }, (_, i) => ({
      login: `org-${i}`,
      name: INJECTION,
      type: 'organization',
      repos_count: i,
    }));
    const message = accountsMessage({ accounts, all: true, site: SITE });
    assertFitsMessage(message.blocks);
    assert.match(JSON.stringify(message.blocks), /showing \d+ of 300 accounts/);
    assert.doesNotMatch(JSON.stringify(message.blocks), /<!channel>/);
  });

  it('permissions on 300 repositories per level fit one message', () => {
    const ids = Array.from({ length: 300 }, (_, i) => i + 1);
    const slugs = new Map(ids.slice(0, 100).map((id) => [id, `owner/a-rather-long-repository-name-${id}`]));
    const message = permissionsMessage({ ids: { admin: ids, push: ids, pull: ids }, slugs }, SITE);
    assertFitsMessage(message.blocks);
    assert.match(JSON.stringify(message.blocks), /\*Administer\* \(300\)/);
  });
});
