import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import {
  assertAckedAtOnce,
  type Harness,
  startLinkedHarness,
  visibleText,
} from '../../helpers/app-harness.js';
import { modalUpdate, openedModal, submitModal, textValue } from '../../helpers/modals.js';
import { assertNotLeaked, leakSurfaces } from '../../helpers/secret-leaks.js';
import { assertSlackAccepted, elementOf, shownText } from '../../helpers/slack-messages.js';

/** A private value typed in the modal: it must reach the CI service and nothing else. */
const SECRET = `s3cr3t-${randomBytes(8).toString('hex')}`;

describe('/ci env', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness({ captureLogs: true });
    const evil = h.ci.state.addRepo({ slug: 'evil/vars', id: 7801, description: 'vars' });
    h.ci.state.grant('rkh', evil, 'admin');
    h.ci.state.addEnvVar(evil, { name: '<!channel>', value: '<!here> public value', public: true });
  });
  after(() => h.close());

  /** Opens the env set modal with `/ci <text>` and submits `value` into it. */
  async function setThroughModal(text: string, value: string, userId?: string) {
    const since = h.slack.calls.length;
    await h.command(text, userId ? { userId } : {});
    const opened = await openedModal(h, { since });
    const ack = await submitModal(h, opened, { env_value: textValue(value) }, { userId });
    return { opened, ack, since };
  }

  describe('list', () => {
    it('lists names, masks private values, and offers Unset with a confirmation', async () => {
      const { ack, responseUrl } = await h.command('env rails/rails');
      assertAckedAtOnce(ack);
      const answer = await h.answer(responseUrl);
      assert.equal(answer.response_type, 'ephemeral');
      const text = visibleText(answer);
      assert.match(text, /encrypted_randomhex_key/);
      assert.match(text, /•••• \(private\)/);
      assert.doesNotMatch(text, /super_secret/);
      const unset = elementOf(answer, 'env.delete');
      assert.match(unset.confirm?.text?.text ?? '', /will be deleted from rails\/rails/);
      assert.equal(unset.confirm?.confirm?.text, 'Unset');
      assertSlackAccepted(h);
    });

    it('shows public values, escaped, and escapes names', async () => {
      const { responseUrl } = await h.command('env evil/vars list');
      const text = shownText(await h.answer(responseUrl));
      assert.doesNotMatch(text, /<!channel>|<!here>/);
      assert.match(text, /`&lt;!channel&gt;` = `&lt;!here&gt; public value`/);
      assert.match(text, /`&lt;!channel&gt;` will be deleted/);
    });

    it('never shows a private value, even when a service sends one', async () => {
      h.ci.fault(
        { method: 'GET', path: '/settings/env_vars' },
        {
          status: 200,
          times: 1,
          body: JSON.stringify({
            env_vars: [
              { id: 'abc-1', name: 'LEAKY', value: 'leaked-value', public: false, repository_id: 891 },
            ],
          }),
        },
      );
      const { responseUrl } = await h.command('env rails/rails');
      const text = visibleText(await h.answer(responseUrl));
      assert.match(text, /LEAKY/);
      assert.doesNotMatch(text, /leaked-value/);
    });

    it('cuts a long list to fit a message and says so', async () => {
      const many = h.ci.state.addRepo({ slug: 'many/vars', id: 7802 });
      h.ci.state.grant('rkh', many, 'admin');
      for (let i = 0; i < 60; i++) {
        h.ci.state.addEnvVar(many, {
          name: `VAR_${i}_${'X'.repeat(200)}`,
          value: 'v'.repeat(400),
          public: i % 2 === 0,
        });
      }
      const { responseUrl } = await h.command('env many/vars');
      const answer = await h.answer(responseUrl);
      assert.match(visibleText(answer), /showing \d+ of 60 variables/);
      assertSlackAccepted(h);
    });

    it('tells someone without push access that their account cannot list them', async () => {
      const { responseUrl } = await h.command('env rails/rails', { userId: 'U0VISITOR' });
      assert.match(
        String((await h.answer(responseUrl)).text),
        /Your travis-ci\.com account \(visitor\) is not allowed to list the environment variables of rails\/rails/,
      );
    });

    it('asks an unlinked user to link and sends nothing to the CI service', async () => {
      const before = h.ci.requests.length;
      const { responseUrl } = await h.command('env rails/rails', { userId: 'U0NOBODY' });
      elementOf(await h.answer(responseUrl), 'account.link');
      assert.equal(h.ci.requests.length, before);
    });

    it('says when the repository is not there', async () => {
      const { responseUrl } = await h.command('env nobody/nothing');
      assert.match(String((await h.answer(responseUrl)).text), /could not find nobody\/nothing/);
    });
  });

  describe('set', () => {
    it('opens a modal with the name fixed and a private note, without a CI call', async () => {
      const before = h.ci.requests.length;
      const since = h.slack.calls.length;
      const { ack } = await h.command('env rails/rails set DEPLOY_TOKEN');
      assertAckedAtOnce(ack);
      const { view } = await openedModal(h, { since });
      assert.equal(view.callback_id, 'view.env_set');
      const text = JSON.stringify(view);
      assert.match(text, /DEPLOY_TOKEN/);
      assert.match(text, /Private/);
      assert.equal(h.ci.requests.length, before);
    });

    it('creates a private variable from the modal and announces it without the value', async () => {
      const { opened, ack } = await setThroughModal('env rails/rails set DEPLOY_TOKEN', SECRET);
      const body = JSON.parse(ack.body) as { response_action: string };
      assert.equal(body.response_action, 'update');
      assert.doesNotMatch(ack.body, new RegExp(SECRET));
      await modalUpdate(h, opened.id, { matching: /Set `DEPLOY_TOKEN`/ });
      const post = await h.slack.waitForCall('chat.postMessage', (c) =>
        /DEPLOY_TOKEN/.test(String(c.args.text)),
      );
      assert.equal(post.args.channel, FAKE_IDENTITY.channelId);
      assert.equal(
        post.args.text,
        `<@${FAKE_IDENTITY.userId}> set \`DEPLOY_TOKEN\` on <https://app.travis-ci.com/github/rails/rails|rails/rails> (private)`,
      );
      const stored = h.ci.state.envVarsOf(891).find((v) => v.name === 'DEPLOY_TOKEN');
      assert.equal(stored?.value, SECRET);
      assert.equal(stored?.public, false);
      assert.ok(h.ci.requests.some((r) => r.method === 'POST' && r.path === '/repos/settings/env_vars'));
    });

    it('updates an existing variable with PATCH (the list is read first)', async () => {
      const before = h.ci.state.envVarsOf(891).find((v) => v.name === 'DEPLOY_TOKEN');
      const { opened } = await setThroughModal('env rails/rails set DEPLOY_TOKEN', `${SECRET}-2`);
      await modalUpdate(h, opened.id, { matching: /Set `DEPLOY_TOKEN`/ });
      assert.ok(
        h.ci.requests.some(
          (r) => r.method === 'PATCH' && r.path === `/repos/settings/env_vars/${before?.id}`,
        ),
      );
      const after = h.ci.state.envVarsOf(891).filter((v) => v.name === 'DEPLOY_TOKEN');
      assert.equal(after.length, 1);
      assert.equal(after[0]?.value, `${SECRET}-2`);
    });

    it('sets a public variable and says it is public', async () => {
      const since = h.slack.calls.length;
      await h.command('env rails/rails set DEBUG --public');
      const opened = await openedModal(h, { since });
      assert.match(JSON.stringify(opened.view), /Public/);
      await submitModal(h, opened, { env_value: textValue('verbose') });
      const post = await h.slack.waitForCall('chat.postMessage', (c) => /DEBUG/.test(String(c.args.text)));
      assert.match(String(post.args.text), /\(public\)$/);
      assert.equal(h.ci.state.envVarsOf(891).find((v) => v.name === 'DEBUG')?.public, true);
    });

    it('with --quiet, the modal is the only confirmation', async () => {
      const posts = h.slack.callsTo('chat.postMessage').length;
      const { opened } = await setThroughModal('env rails/rails set QUIET_ONE --quiet', 'quiet-value');
      await modalUpdate(h, opened.id, { matching: /Set `QUIET_ONE`/ });
      assert.equal(h.slack.callsTo('chat.postMessage').length, posts);
      assert.ok(h.ci.state.envVarsOf(891).some((v) => v.name === 'QUIET_ONE'));
    });

    it('refuses an empty value inline, before the ack', async () => {
      const since = h.slack.calls.length;
      await h.command('env rails/rails set EMPTY_ONE');
      const opened = await openedModal(h, { since });
      const ack = await submitModal(h, opened, { env_value: textValue('   ') });
      assert.deepEqual(JSON.parse(ack.body), {
        response_action: 'errors',
        errors: { env_value: 'Enter a value.' },
      });
    });

    it('refuses a form whose metadata was tampered with', async () => {
      const ack = await h.submit({
        view: {
          id: 'V0FORGED',
          callbackId: 'view.env_set',
          privateMetadata: JSON.stringify({ d: 'com', r: 'rails/rails', n: 'BAD NAME', p: false, q: false }),
          values: { env_value: { value: { type: 'plain_text_input', value: 'x' } } },
        },
      });
      assert.equal((JSON.parse(ack.body) as { response_action: string }).response_action, 'errors');
      assert.ok(!h.ci.state.envVarsOf(891).some((v) => v.name === 'BAD NAME'));
    });

    it('shows in the modal that someone without admin rights cannot set it', async () => {
      const { opened } = await setThroughModal('env rails/rails set VISITOR_VAR', 'nope', 'U0VISITOR');
      const view = await modalUpdate(h, opened.id, { matching: /not allowed/ });
      assert.match(JSON.stringify(view), /\(visitor\) is not allowed to set VISITOR_VAR on rails\/rails/);
      assert.ok(!h.ci.state.envVarsOf(891).some((v) => v.name === 'VISITOR_VAR'));
    });

    it('shows in the modal when the repository is not there', async () => {
      const { opened } = await setThroughModal('env nobody/nothing set SOME_VAR', 'x');
      await modalUpdate(h, opened.id, { matching: /could not find nobody\/nothing/ });
    });

    it('asks an unlinked user to link instead of opening the modal', async () => {
      const opens = h.slack.callsTo('views.open').length;
      const { responseUrl } = await h.command('env rails/rails set NOBODY_VAR', { userId: 'U0NOBODY' });
      elementOf(await h.answer(responseUrl), 'account.link');
      assert.equal(h.slack.callsTo('views.open').length, opens);
    });

    it('refuses a malformed name or a missing one with the usage line', async () => {
      for (const text of [
        'env rails/rails set 1BAD',
        'env rails/rails set',
        'env rails/rails set <!channel>',
      ]) {
        const { responseUrl } = await h.command(text);
        const answer = visibleText(await h.answer(responseUrl));
        assert.match(answer, /\/ci env/, text);
        assert.doesNotMatch(answer, /<!channel>/);
      }
    });
  });

  describe('unset', () => {
    it('asks first, with a Delete button that carries a confirmation, and deletes nothing yet', async () => {
      const deletes = h.ci.requests.filter((r) => r.method === 'DELETE').length;
      const { responseUrl } = await h.command('env rails/rails unset encrypted_randomhex_iv');
      const answer = await h.answer(responseUrl);
      assert.equal(answer.response_type, 'ephemeral');
      const remove = elementOf(answer, 'env.delete');
      assert.equal((remove as { text?: { text?: string } }).text?.text, 'Delete');
      assert.match(remove.confirm?.text?.text ?? '', /encrypted_randomhex_iv/);
      assert.equal(h.ci.requests.filter((r) => r.method === 'DELETE').length, deletes);
    });

    it('a click by someone without rights changes nothing and says why', async () => {
      const { responseUrl } = await h.command('env rails/rails unset encrypted_randomhex_iv');
      const remove = elementOf(await h.answer(responseUrl), 'env.delete');
      const click = await h.click({
        userId: 'U0VISITOR',
        actionId: String(remove.action_id),
        value: String(remove.value),
      });
      assertAckedAtOnce(click.ack);
      assert.match(
        String((await h.answer(click.responseUrl)).text),
        /\(visitor\) is not allowed to unset encrypted_randomhex_iv on rails\/rails/,
      );
      assert.ok(h.ci.state.envVarsOf(891).some((v) => v.name === 'encrypted_randomhex_iv'));
    });

    it('a click by someone unlinked asks them to link and calls nothing', async () => {
      const { responseUrl } = await h.command('env rails/rails unset encrypted_randomhex_iv');
      const remove = elementOf(await h.answer(responseUrl), 'env.delete');
      const before = h.ci.requests.length;
      const click = await h.click({
        userId: 'U0NOBODY',
        actionId: String(remove.action_id),
        value: String(remove.value),
      });
      elementOf(await h.answer(click.responseUrl), 'account.link');
      assert.equal(h.ci.requests.length, before);
    });

    it('the click deletes as the person who clicks and announces it', async () => {
      const { responseUrl } = await h.command('env rails/rails unset encrypted_randomhex_iv');
      const remove = elementOf(await h.answer(responseUrl), 'env.delete');
      const click = await h.click({ actionId: String(remove.action_id), value: String(remove.value) });
      const answer = await h.answer(click.responseUrl);
      assert.equal(answer.response_type, 'in_channel');
      assert.equal(
        answer.text,
        `<@${FAKE_IDENTITY.userId}> unset \`encrypted_randomhex_iv\` on <https://app.travis-ci.com/github/rails/rails|rails/rails>`,
      );
      const deleted = h.ci.requests.findLast((r) => r.method === 'DELETE');
      assert.equal(deleted?.path, '/repos/settings/env_vars/b2ed30b9-622d-4bd7-928b-ba5aad7ba6a1');
      assert.equal(deleted?.headers.authorization, 'token token-rkh');
      assert.ok(!h.ci.state.envVarsOf(891).some((v) => v.name === 'encrypted_randomhex_iv'));

      const again = await h.click({ actionId: String(remove.action_id), value: String(remove.value) });
      assert.match(
        String((await h.answer(again.responseUrl)).text),
        /could not find encrypted_randomhex_iv on rails\/rails on travis-ci\.com/,
      );
    });

    it('with --quiet, the click answers privately', async () => {
      const { responseUrl } = await h.command('env rails/rails unset QUIET_ONE --quiet');
      const remove = elementOf(await h.answer(responseUrl), 'env.delete');
      const click = await h.click({ actionId: String(remove.action_id), value: String(remove.value) });
      const answer = await h.answer(click.responseUrl);
      assert.equal(answer.response_type, 'ephemeral');
      assert.match(String(answer.text), /^Unset `QUIET_ONE` on/);
    });

    it('says when there is no such variable', async () => {
      const { responseUrl } = await h.command('env rails/rails unset NOPE');
      assert.match(
        String((await h.answer(responseUrl)).text),
        /rails\/rails has no environment variable called NOPE/,
      );
    });

    it('answers a tampered button value without acting', async () => {
      const before = h.ci.requests.length;
      const click = await h.click({ actionId: 'env.delete', value: '{"d":"com","repoId":"x"}' });
      assert.match(String((await h.answer(click.responseUrl)).text), /out of date/);
      assert.equal(h.ci.requests.length, before);
    });
  });

  it('the private value never reached Slack, the logs or Redis', async () => {
    assert.ok(h.logs.length > 0, 'the log was captured');
    const { Redis } = await leakSurfaces(h);
    assert.ok(Redis !== '', 'the harness wrote to Redis (linked accounts)');
    await assertNotLeaked(h, [SECRET]);
    assertSlackAccepted(h);
  });
});
