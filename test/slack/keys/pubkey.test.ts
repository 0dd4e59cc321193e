import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertAckedAtOnce,
  type Harness,
  startLinkedHarness,
  visibleText,
} from '../../helpers/app-harness.js';
import { ANSWER_MS, CI_TIMEOUT_MS } from '../../helpers/modals.js';
import { assertSlackAccepted, elementOf } from '../../helpers/slack-messages.js';

describe('/ci pubkey', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness({ ciRequestTimeoutMs: CI_TIMEOUT_MS });
    // The fake makes a repository's key pair on first use; make it now, not inside a timed request.
    h.ci.state.keyOf(9001);
  });
  after(() => h.close());

  const keyRequests = () => h.ci.requests.filter((r) => /\/key$/.test(r.path));

  it('shows the public key in a code block with its fingerprint, privately', async () => {
    const { ack, responseUrl } = await h.command('pubkey rails/rails');
    assert.equal(ack.status, 200);
    const answer = await h.answer(responseUrl, ANSWER_MS);
    assert.equal(answer.response_type, 'ephemeral');
    const text = visibleText(answer);
    assert.match(text, /Public key of <https:\/\/app\.travis-ci\.com\/github\/rails\/rails\|rails\/rails>/);
    assert.match(text, /```\\n-----BEGIN PUBLIC KEY-----\\nMIGfMA0G/);
    assert.match(text, /Fingerprint: `foobar`/);
    assert.match(text, /up to 117 bytes each/);
    const request = h.ci.requests.find((r) => r.path === '/repos/rails/rails/key');
    assert.equal(request?.headers.authorization, 'token token-rkh');
    assertSlackAccepted(h);
  });

  it('accepts a repository id and shows its slug', async () => {
    const { responseUrl } = await h.command('pubkey 9001');
    const text = visibleText(await h.answer(responseUrl, ANSWER_MS));
    assert.match(text, /rkh\/secret-project/);
    assert.match(text, /BEGIN PUBLIC KEY/);
  });

  it('asks an unlinked user to link, and sends nothing to the CI service', async () => {
    const before = h.ci.requests.length;
    const { responseUrl } = await h.command('pubkey rails/rails', { userId: 'U0NOBODY' });
    const answer = await h.answer(responseUrl, ANSWER_MS);
    assert.match(visibleText(answer), /not linked your travis-ci\.com account/);
    assert.match(visibleText(answer), /account\.link/);
    assert.equal(h.ci.requests.length, before);
  });

  it('says plainly when the repository does not exist', async () => {
    const { responseUrl } = await h.command('pubkey nobody/nothing');
    assert.match(
      String((await h.answer(responseUrl, ANSWER_MS)).text),
      /could not find nobody\/nothing on travis-ci\.com, or your travis-ci\.com account \(rkh\) cannot see it/,
    );
  });

  it('does not show the key of a private repository to someone without access', async () => {
    const { responseUrl } = await h.command('pubkey rkh/secret-project', { userId: 'U0VISITOR' });
    const answer = await h.answer(responseUrl, ANSWER_MS);
    assert.match(String(answer.text), /could not find rkh\/secret-project.*\(visitor\) cannot see it/);
    assert.doesNotMatch(visibleText(answer), /BEGIN PUBLIC KEY/);
  });

  it('says the CI service is having trouble when it answers 5xx', async () => {
    h.ci.fault({ method: 'GET', path: '/repos/rails/rails/key' }, { status: 503, times: 2 });
    const { responseUrl } = await h.command('pubkey rails/rails');
    assert.match(
      String((await h.answer(responseUrl, ANSWER_MS)).text),
      /travis-ci\.com is having trouble \(it answered 503\)\. Nothing was changed/,
    );
  });

  it('answers a usage mistake with the usage line', async () => {
    const { responseUrl } = await h.command('pubkey');
    assert.match(String((await h.answer(responseUrl, ANSWER_MS)).text), /\/ci pubkey/);
    const { responseUrl: second } = await h.command('pubkey not/a/repo');
    assert.match(String((await h.answer(second, ANSWER_MS)).text), /owner\/name/);
  });

  describe('--regenerate', () => {
    it('offers a Regenerate button behind a confirm dialog, and changes nothing yet', async () => {
      const posts = keyRequests().filter((r) => r.method === 'POST').length;
      const { responseUrl } = await h.command('pubkey rails/rails --regenerate');
      const answer = await h.answer(responseUrl, ANSWER_MS);
      assert.equal(answer.response_type, 'ephemeral');
      const button = elementOf(answer, 'pubkey.regenerate');
      assert.equal(button.style, 'danger');
      const confirm = button.confirm as { title: { text: string }; text: { text: string } };
      assert.equal(confirm.title.text, 'Regenerate the key?');
      assert.match(confirm.text.text, /Every value encrypted with the old key stops working/);
      assert.deepEqual(JSON.parse(String(button.value)), { d: 'com', repo: 'rails/rails', quiet: false });
      assert.equal(keyRequests().filter((r) => r.method === 'POST').length, posts);
      assertSlackAccepted(h);
    });

    it('regenerates on click, as the clicker, and announces it in the channel', async () => {
      const { responseUrl } = await h.command('pubkey rails/rails --regenerate');
      const button = elementOf(await h.answer(responseUrl, ANSWER_MS), 'pubkey.regenerate');
      const { ack, responseUrl: clickUrl } = await h.click({
        actionId: String(button.action_id),
        value: String(button.value),
        message: { ts: '1700000000.000100' },
      });
      assert.equal(ack.status, 200);
      assertAckedAtOnce(ack);
      const announcement = await h.answer(clickUrl, ANSWER_MS);
      assert.equal(announcement.response_type, 'in_channel');
      assert.match(String(announcement.text), /^<@U0USER> regenerated the key of rails\/rails$/);
      const fingerprint = h.ci.state.keyOf(891).fingerprint;
      assert.notEqual(fingerprint, 'foobar');
      assert.ok(visibleText(announcement).includes(fingerprint));
      const post = keyRequests().find((r) => r.method === 'POST' && r.path === '/repos/rails/rails/key');
      assert.equal(post?.headers.authorization, 'token token-rkh');
      assertSlackAccepted(h);
    });

    it('with --quiet, confirms privately in place of the button instead of announcing', async () => {
      const { responseUrl } = await h.command('pubkey rails/rails --regenerate --quiet');
      const button = elementOf(await h.answer(responseUrl, ANSWER_MS), 'pubkey.regenerate');
      const { responseUrl: clickUrl } = await h.click({
        actionId: String(button.action_id),
        value: String(button.value),
        message: { ts: '1700000000.000200' },
      });
      const answer = await h.answer(clickUrl, ANSWER_MS);
      assert.equal(answer.response_type, 'ephemeral');
      assert.equal(answer.replace_original, true);
      assert.match(String(answer.text), /regenerated the key of rails\/rails/);
    });

    it('refuses a click by someone without admin rights, in plain words', async () => {
      const before = h.ci.state.keyOf(891).fingerprint;
      const { responseUrl } = await h.click({
        userId: 'U0VISITOR',
        actionId: 'pubkey.regenerate',
        value: JSON.stringify({ d: 'com', repo: 'rails/rails' }),
        message: { ts: '1700000000.000300' },
      });
      assert.match(
        String((await h.answer(responseUrl, ANSWER_MS)).text),
        /Your travis-ci\.com account \(visitor\) is not allowed to regenerate the key of rails\/rails/,
      );
      assert.equal(h.ci.state.keyOf(891).fingerprint, before);
    });

    it('asks an unlinked clicker to link, and regenerates nothing', async () => {
      const before = h.ci.requests.length;
      const { responseUrl } = await h.click({
        userId: 'U0NOBODY',
        actionId: 'pubkey.regenerate',
        value: JSON.stringify({ d: 'com', repo: 'rails/rails' }),
        message: { ts: '1700000000.000400' },
      });
      assert.match(
        visibleText(await h.answer(responseUrl, ANSWER_MS)),
        /not linked your travis-ci\.com account/,
      );
      assert.equal(h.ci.requests.length, before);
    });

    it('says plainly when the repository is gone by the time of the click', async () => {
      const { responseUrl } = await h.click({
        actionId: 'pubkey.regenerate',
        value: JSON.stringify({ d: 'com', repo: 'gone/away' }),
        message: { ts: '1700000000.000450' },
      });
      assert.match(String((await h.answer(responseUrl, ANSWER_MS)).text), /could not find gone\/away/);
    });

    it('says a click whose value is not ours is out of date', async () => {
      const { responseUrl } = await h.click({
        actionId: 'pubkey.regenerate',
        value: '{"d":"com","repo":""}',
        message: { ts: '1700000000.000500' },
      });
      assert.match(String((await h.answer(responseUrl, ANSWER_MS)).text), /out of date/);
    });

    it('says nothing was changed when the service answers 5xx to the regeneration', async () => {
      const before = h.ci.state.keyOf(891).fingerprint;
      h.ci.fault({ method: 'POST', path: '/repos/rails/rails/key' }, { status: 500, times: 1 });
      const { responseUrl } = await h.click({
        actionId: 'pubkey.regenerate',
        value: JSON.stringify({ d: 'com', repo: 'rails/rails' }),
        message: { ts: '1700000000.000600' },
      });
      assert.match(
        String((await h.answer(responseUrl, ANSWER_MS)).text),
        /having trouble \(it answered 500\)/,
      );
      assert.equal(h.ci.state.keyOf(891).fingerprint, before);
      assertSlackAccepted(h);
    });
  });
});
