import assert from 'node:assert/strict';
import { after, before, beforeEach, describe, it } from 'node:test';
import { BLOCK_LIMITS, type FakeSlack, startFakeSlack } from './index.js';
import { platformError, webClientFor } from './test-support.js';

const plain = (text: string) => ({ type: 'plain_text', text });
const section = (text: string) => ({ type: 'section', text: { type: 'mrkdwn', text } });
const button = (actionId: string, fields: Record<string, unknown> = {}) => ({
  type: 'button',
  action_id: actionId,
  text: plain('Restart'),
  ...fields,
});
const actions = (elements: unknown[]) => ({ type: 'actions', elements });
const option = (value: string, text = value) => ({ text: plain(text), value });
const select = (options: unknown[]) => ({ type: 'static_select', action_id: 'pick', options });

interface Rule {
  name: string;
  limit: number;
  /** Blocks whose measured item has `size` characters or items. */
  blocks: (size: number) => unknown[];
  pointer: string;
}

const messageRules: Rule[] = [
  {
    name: 'blocks per message',
    limit: BLOCK_LIMITS.messageBlocks,
    blocks: (n) => Array.from({ length: n }, () => section('x')),
    pointer: '/blocks',
  },
  {
    name: 'section text',
    limit: 3000,
    blocks: (n) => [section('x'.repeat(n))],
    pointer: '/blocks/0/text/text',
  },
  {
    name: 'section fields',
    limit: 10,
    blocks: (n) => [{ type: 'section', fields: Array.from({ length: n }, () => plain('f')) }],
    pointer: '/blocks/0/fields',
  },
  {
    name: 'section field text',
    limit: 2000,
    blocks: (n) => [{ type: 'section', fields: [plain('x'.repeat(n))] }],
    pointer: '/blocks/0/fields/0/text',
  },
  {
    name: 'header text',
    limit: 150,
    blocks: (n) => [{ type: 'header', text: plain('x'.repeat(n)) }],
    pointer: '/blocks/0/text/text',
  },
  {
    name: 'button text',
    limit: 75,
    blocks: (n) => [actions([{ ...button('a'), text: plain('x'.repeat(n)) }])],
    pointer: '/blocks/0/elements/0/text/text',
  },
  {
    name: 'button value',
    limit: 2000,
    blocks: (n) => [actions([button('a', { value: 'x'.repeat(n) })])],
    pointer: '/blocks/0/elements/0/value',
  },
  {
    name: 'button url',
    limit: 3000,
    blocks: (n) => [actions([button('a', { url: `https://ci.example/${'x'.repeat(n - 19)}` })])],
    pointer: '/blocks/0/elements/0/url',
  },
  {
    name: 'action_id',
    limit: 255,
    blocks: (n) => [actions([button('x'.repeat(n))])],
    pointer: '/blocks/0/elements/0/action_id',
  },
  {
    name: 'block_id',
    limit: 255,
    blocks: (n) => [{ ...section('x'), block_id: 'b'.repeat(n) }],
    pointer: '/blocks/0/block_id',
  },
  {
    name: 'elements in an actions block',
    limit: 25,
    blocks: (n) => [actions(Array.from({ length: n }, (_, i) => button(`a${i}`)))],
    pointer: '/blocks/0/elements',
  },
  {
    name: 'static select options',
    limit: 100,
    blocks: (n) => [actions([select(Array.from({ length: n }, (_, i) => option(`v${i}`)))])],
    pointer: '/blocks/0/elements/0/options',
  },
  {
    name: 'option text',
    limit: 75,
    blocks: (n) => [actions([select([option('v', 'x'.repeat(n))])])],
    pointer: '/blocks/0/elements/0/options/0/text/text',
  },
  {
    name: 'option value',
    limit: 150,
    blocks: (n) => [actions([select([option('x'.repeat(n), 'Option')])])],
    pointer: '/blocks/0/elements/0/options/0/value',
  },
  {
    name: 'overflow options',
    limit: 5,
    blocks: (n) => [
      actions([
        {
          type: 'overflow',
          action_id: 'more',
          options: Array.from({ length: n }, (_, i) => option(`o${i}`)),
        },
      ]),
    ],
    pointer: '/blocks/0/elements/0/options',
  },
  {
    name: 'placeholder',
    limit: 150,
    blocks: (n) => [actions([{ ...select([option('v')]), placeholder: plain('x'.repeat(n)) }])],
    pointer: '/blocks/0/elements/0/placeholder/text',
  },
  {
    name: 'context elements',
    limit: 10,
    blocks: (n) => [{ type: 'context', elements: Array.from({ length: n }, () => plain('c')) }],
    pointer: '/blocks/0/elements',
  },
];

describe('fake Slack Block Kit limits', () => {
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack();
  });
  after(() => slack.close());
  beforeEach(() => slack.reset());

  for (const rule of messageRules) {
    it(`messages: ${rule.name} — ${rule.limit} accepted, ${rule.limit + 1} invalid_blocks`, async () => {
      const client = webClientFor(slack);
      await client.apiCall('chat.postMessage', {
        channel: 'C1',
        text: 'ok',
        blocks: rule.blocks(rule.limit),
      });
      const data = await platformError(
        client.apiCall('chat.postMessage', {
          channel: 'C1',
          text: 'over',
          blocks: rule.blocks(rule.limit + 1),
        }),
      );
      assert.equal(data.error, 'invalid_blocks');
      const messages = (data.response_metadata as { messages: string[] }).messages;
      assert.ok(
        messages.some((m) => m.startsWith('[ERROR] ') && m.endsWith(`[json-pointer:${rule.pointer}]`)),
        `expected a problem at ${rule.pointer}, got ${messages.join(' | ')}`,
      );
      assert.deepEqual(
        slack.rejected().map((c) => c.error),
        ['invalid_blocks'],
      );
      assert.equal(slack.messages('C1').length, 1);
    });
  }

  it('checks chat.update and chat.postEphemeral blocks the same way', async () => {
    const client = webClientFor(slack);
    const posted = await client.chat.postMessage({ channel: 'C1', text: 'x' });
    const tooLong = [section('x'.repeat(3001))];
    const update = await platformError(
      client.apiCall('chat.update', { channel: 'C1', ts: posted.ts ?? '', blocks: tooLong }),
    );
    assert.equal(update.error, 'invalid_blocks');
    const ephemeral = await platformError(
      client.apiCall('chat.postEphemeral', { channel: 'C1', user: 'U1', blocks: tooLong }),
    );
    assert.equal(ephemeral.error, 'invalid_blocks');
  });

  it('refuses a message whose blocks hold more than 12,000 characters of text', async () => {
    const client = webClientFor(slack);
    const full = Array.from({ length: 4 }, () => section('x'.repeat(3000)));
    await client.apiCall('chat.postMessage', { channel: 'C1', text: 'at limit', blocks: full });
    const data = await platformError(
      client.apiCall('chat.postMessage', { channel: 'C1', text: 'over', blocks: [...full, section('y')] }),
    );
    assert.equal(data.error, 'msg_blocks_too_long');
  });

  it('refuses a duplicate action_id within a block and a duplicate block_id within a message', async () => {
    const client = webClientFor(slack);
    await client.apiCall('chat.postMessage', {
      channel: 'C1',
      text: 'same action_id in different blocks is fine',
      blocks: [actions([button('restart')]), actions([button('restart')])],
    });
    const sameBlock = await platformError(
      client.apiCall('chat.postMessage', {
        channel: 'C1',
        text: 'x',
        blocks: [actions([button('go'), button('go')])],
      }),
    );
    assert.equal(sameBlock.error, 'invalid_blocks');
    assert.match(String(sameBlock.errors), /duplicate action_id: go .*\/blocks\/0\/elements\/1\/action_id/);
    const sameBlockId = await platformError(
      client.apiCall('chat.postMessage', {
        channel: 'C1',
        text: 'x',
        blocks: [
          { ...section('a'), block_id: 'b1' },
          { ...section('b'), block_id: 'b1' },
        ],
      }),
    );
    assert.equal(sameBlockId.error, 'invalid_blocks');
    assert.match(String(sameBlockId.errors), /duplicate block_id: b1 .*\/blocks\/1\/block_id/);
  });

  it('refuses unknown block types, mrkdwn in a header and malformed blocks', async () => {
    const client = webClientFor(slack);
    const unknown = await platformError(
      client.apiCall('chat.postMessage', { channel: 'C1', blocks: [{ type: 'banner' }] }),
    );
    assert.match(String(unknown.errors), /unsupported type: banner/);
    const header = await platformError(
      client.apiCall('chat.postMessage', {
        channel: 'C1',
        blocks: [{ type: 'header', text: { type: 'mrkdwn', text: 'h' } }],
      }),
    );
    assert.match(String(header.errors), /must be plain_text/);
    const response = await fetch(`${slack.apiUrl}chat.postMessage`, {
      method: 'POST',
      headers: {
        'Content-Type': 'application/x-www-form-urlencoded',
        Authorization: 'Bearer xoxb-test-token',
      },
      body: new URLSearchParams({ channel: 'C1', text: 'x', blocks: '[{"type":' }).toString(),
    });
    assert.deepEqual(await response.json(), { ok: false, error: 'invalid_blocks_format' });
  });
});

describe('fake Slack view limits', () => {
  let slack: FakeSlack;
  before(async () => {
    slack = await startFakeSlack();
  });
  after(() => slack.close());
  beforeEach(() => slack.reset());

  const modal = (fields: Record<string, unknown> = {}) => ({
    type: 'modal',
    title: plain('Restart build'),
    blocks: [section('Restart?')],
    ...fields,
  });

  async function openError(view: Record<string, unknown>): Promise<Record<string, unknown>> {
    return platformError(
      webClientFor(slack).apiCall('views.open', { trigger_id: slack.issueTriggerId(), view: modal(view) }),
    );
  }

  function messagesOf(data: Record<string, unknown>): string {
    return (data.response_metadata as { messages: string[] }).messages.join(' | ');
  }

  const viewRules: Array<{
    name: string;
    limit: number;
    view: (n: number) => Record<string, unknown>;
    pointer: string;
  }> = [
    {
      name: 'blocks per modal',
      limit: BLOCK_LIMITS.viewBlocks,
      view: (n) => ({ blocks: Array.from({ length: n }, () => section('x')) }),
      pointer: '/view/blocks',
    },
    {
      name: 'private_metadata',
      limit: 3000,
      view: (n) => ({ private_metadata: 'm'.repeat(n) }),
      pointer: '/view/private_metadata',
    },
    {
      name: 'callback_id',
      limit: 255,
      view: (n) => ({ callback_id: 'c'.repeat(n) }),
      pointer: '/view/callback_id',
    },
    { name: 'title', limit: 24, view: (n) => ({ title: plain('t'.repeat(n)) }), pointer: '/view/title/text' },
    {
      name: 'section text in a modal',
      limit: 3000,
      view: (n) => ({ blocks: [section('x'.repeat(n))] }),
      pointer: '/view/blocks/0/text/text',
    },
  ];

  for (const rule of viewRules) {
    it(`views.open: ${rule.name} — ${rule.limit} accepted, ${rule.limit + 1} invalid_arguments`, async () => {
      const opened = await webClientFor(slack).apiCall('views.open', {
        trigger_id: slack.issueTriggerId(),
        view: modal(rule.view(rule.limit)),
      });
      assert.equal(opened.ok, true);
      const data = await openError(rule.view(rule.limit + 1));
      assert.equal(data.error, 'invalid_arguments');
      assert.match(messagesOf(data), new RegExp(`\\[ERROR\\] .*\\[json-pointer:${rule.pointer}\\]`));
    });
  }

  it('views.publish: 100 blocks on a Home tab accepted, 101 refused, and only type home', async () => {
    const client = webClientFor(slack);
    const home = (n: number) => ({ type: 'home', blocks: Array.from({ length: n }, () => section('x')) });
    assert.equal((await client.apiCall('views.publish', { user_id: 'U1', view: home(100) })).ok, true);
    const over = await platformError(client.apiCall('views.publish', { user_id: 'U1', view: home(101) }));
    assert.equal(over.error, 'invalid_arguments');
    assert.match(messagesOf(over), /no more than 100 items allowed \[json-pointer:\/view\/blocks\]/);
    const notHome = await platformError(client.apiCall('views.publish', { user_id: 'U1', view: modal() }));
    assert.match(messagesOf(notHome), /must be home/);
  });

  it('refuses a modal with input blocks but no submit button', async () => {
    const input = {
      type: 'input',
      block_id: 'branch',
      label: plain('Branch'),
      element: { type: 'plain_text_input', action_id: 'value' },
    };
    const data = await openError({ blocks: [input] });
    assert.match(messagesOf(data), /must provide submit property/);
    const opened = await webClientFor(slack).apiCall('views.open', {
      trigger_id: slack.issueTriggerId(),
      view: modal({ blocks: [input], submit: plain('Start') }),
    });
    assert.equal(opened.ok, true);
  });
});
