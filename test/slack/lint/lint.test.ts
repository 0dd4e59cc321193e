import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertAckedAtOnce,
  type Harness,
  startLinkedHarness,
  visibleText,
} from '../../helpers/app-harness.js';
import {
  ANSWER_MS,
  ackBody,
  CI_TIMEOUT_MS,
  modalUpdate,
  openedModal,
  submitModal,
  textValue,
} from '../../helpers/modals.js';
import { assertSlackAccepted } from '../../helpers/slack-messages.js';

type Json = Record<string, unknown>;

describe('/ci lint and the "Lint CI config" shortcut', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness({ ciRequestTimeoutMs: CI_TIMEOUT_MS });
  });
  after(() => h.close());

  const lintRequests = () => h.ci.requests.filter((r) => r.path === '/lint');

  /** `/ci lint`, then submits `config` in the form; returns the ack body and the filled result. */
  async function lintInModal(config: string | null, userId?: string) {
    const { ack, triggerId } = await h.command('lint', userId ? { userId } : {});
    assertAckedAtOnce(ack);
    const { id, view } = await openedModal(h, { triggerId });
    const submitted = await submitModal(h, { id, view }, { config: textValue(config) }, { userId });
    assertAckedAtOnce(submitted);
    return { id, ack: ackBody(submitted) };
  }

  async function shortcut(text: string, userId?: string) {
    const responseUrl = h.slack.responseUrl();
    const ack = await h.shortcut({
      callbackId: 'shortcut.lint_config',
      message: { ts: '1700000000.000100', text },
      responseUrl,
      ...(userId ? { userId } : {}),
    });
    assert.equal(ack.status, 200);
    assertAckedAtOnce(ack);
    return h.answer(responseUrl, ANSWER_MS);
  }

  it('opens the form at once, without asking the CI service anything', async () => {
    const before = h.ci.requests.length;
    const { triggerId } = await h.command('lint');
    const { view } = await openedModal(h, { triggerId });
    assert.equal(view.callback_id, 'view.lint');
    assert.equal(h.ci.requests.length, before);
  });

  it('says "No warnings" for a valid configuration', async () => {
    const { id, ack } = await lintInModal('language: ruby\nrvm:\n  - 3.2\n');
    assert.equal(ack.response_action, 'update');
    assert.match(visibleText(ack.view as Json), /Checking your configuration/);
    const result = await modalUpdate(h, id);
    assert.match(visibleText(result), /No warnings/);
    const request = lintRequests().at(-1);
    assert.equal(request?.method, 'POST');
    assert.deepEqual(JSON.parse(request?.body ?? '{}'), { content: 'language: ruby\nrvm:\n  - 3.2\n' });
    assert.equal(request?.headers.authorization, 'token token-rkh');
  });

  it('lists the warnings with their key paths, escaped', async () => {
    const { id } = await lintInModal('"<!channel>": 1\nfoo: bar\n');
    const text = visibleText(await modalUpdate(h, id));
    assert.match(text, /3 warnings/);
    assert.match(text, /`&lt;!channel&gt;`: unexpected key \\"&lt;!channel&gt;\\", dropping/);
    assert.match(text, /`foo`: unexpected key \\"foo\\", dropping/);
    assert.match(text, /`language`: missing key \\"language\\"/);
    assert.doesNotMatch(text, /<!channel>/);
    assertSlackAccepted(h);
  });

  it('cuts a very long list of warnings to fit, saying how many are shown', async () => {
    const config = Array.from({ length: 300 }, (_, i) => `unknown_key_number_${i}: true`).join('\n');
    const { id } = await lintInModal(config);
    const result = await modalUpdate(h, id);
    const text = visibleText(result);
    assert.match(text, /301 warnings/);
    assert.match(text, /showing \d+ of 301 warnings/);
    assertSlackAccepted(h);
  });

  it('asks for the file when the form is submitted empty', async () => {
    const { ack } = await lintInModal(null);
    assert.equal(ack.response_action, 'errors');
    assert.match(String((ack.errors as Json).config), /Paste the configuration/);
  });

  it('works for a user without rights on any repository (linting needs none)', async () => {
    const { id } = await lintInModal('language: go\n', 'U0VISITOR');
    assert.match(visibleText(await modalUpdate(h, id)), /No warnings/);
    assert.equal(lintRequests().at(-1)?.headers.authorization, 'token token-visitor');
  });

  it('asks an unlinked user to link first, and opens no form', async () => {
    const opens = h.slack.callsTo('views.open').length;
    const { responseUrl } = await h.command('lint', { userId: 'U0NOBODY' });
    assert.match(
      visibleText(await h.answer(responseUrl, ANSWER_MS)),
      /not linked your travis-ci\.com account/,
    );
    assert.equal(h.slack.callsTo('views.open').length, opens);
  });

  it('shows a 5xx of the CI service in the modal', async () => {
    h.ci.fault({ method: 'POST', path: '/lint' }, { status: 503, times: 1 });
    const { id } = await lintInModal('language: ruby\n');
    assert.match(
      visibleText(await modalUpdate(h, id)),
      /travis-ci\.com is having trouble \(it answered 503\)/,
    );
  });

  it('answers a usage mistake with the usage line', async () => {
    const { responseUrl } = await h.command('lint .travis.yml');
    assert.match(String((await h.answer(responseUrl, ANSWER_MS)).text), /\/ci lint/);
  });

  describe('the message shortcut', () => {
    it('lints the first code block of the message and answers privately', async () => {
      const answer = await shortcut(
        'Can someone check this?\n```language: ruby\nscript: echo &lt;hi&gt; &amp;&amp; rake\nsudo_make_me: a sandwich```\nThanks!',
      );
      assert.equal(answer.response_type, 'ephemeral');
      assert.match(visibleText(answer), /1 warning/);
      assert.match(visibleText(answer), /`sudo_make_me`: unexpected key/);
      assert.deepEqual(JSON.parse(lintRequests().at(-1)?.body ?? '{}'), {
        content: 'language: ruby\nscript: echo <hi> && rake\nsudo_make_me: a sandwich',
      });
      assertSlackAccepted(h);
    });

    it('escapes what the linter says about the text (a key named <!channel>)', async () => {
      const answer = await shortcut('```language: ruby\n"&lt;!channel&gt;": ping```');
      assert.match(visibleText(answer), /unexpected key \\"&lt;!channel&gt;\\"/);
      assert.doesNotMatch(visibleText(answer), /<!channel>/);
    });

    it('explains what it needs when the message has no code block, without calling the CI service', async () => {
      const before = h.ci.requests.length;
      const answer = await shortcut('language: ruby, but not in a code block');
      assert.match(String(answer.text), /no code block in that message/);
      assert.equal(h.ci.requests.length, before);
    });

    it('asks an unlinked user to link, and lints nothing', async () => {
      const before = h.ci.requests.length;
      const answer = await shortcut('```language: ruby```', 'U0NOBODY');
      assert.match(visibleText(answer), /account\.link/);
      assert.equal(h.ci.requests.length, before);
    });

    it('says so when the CI service fails', async () => {
      h.ci.fault({ method: 'POST', path: '/lint' }, { status: 500, times: 1 });
      const answer = await shortcut('```language: ruby```');
      assert.match(String(answer.text), /having trouble \(it answered 500\)/);
    });
  });
});
