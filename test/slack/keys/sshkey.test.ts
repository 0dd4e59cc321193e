import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
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
  openAndFill,
  textValue,
} from '../../helpers/modals.js';
import { assertNotLeaked } from '../../helpers/secret-leaks.js';
import { assertSlackAccepted, elementOf } from '../../helpers/slack-messages.js';

type Json = Record<string, unknown>;

const PRIVATE_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();
/** The secret part: the key's base64 body. */
const KEY_BODY = PRIVATE_KEY.split('\n')[1] ?? '';

describe('/ci sshkey', () => {
  let h: Harness;
  const acks: string[] = [];
  before(async () => {
    h = await startLinkedHarness({ captureLogs: true, ciRequestTimeoutMs: CI_TIMEOUT_MS });
  });
  after(() => h.close());

  async function submitKey(id: string, metadata: string, key: string, description: string | null) {
    const ack = await h.submit({
      view: {
        id,
        callbackId: 'view.sshkey_set',
        privateMetadata: metadata,
        values: { private_key: textValue(key), description: textValue(description) },
      },
    });
    acks.push(ack.body);
    assert.equal(ack.status, 200);
    return ackBody(ack);
  }

  it('says when a repository has no custom SSH key', async () => {
    const { responseUrl } = await h.command('sshkey rails/rails');
    const answer = await h.answer(responseUrl, ANSWER_MS);
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(String(answer.text), /rails\/rails has no custom SSH key/);
    assert.match(visibleText(answer), /\/ci sshkey rails\/rails set/);
  });

  it('sets a key from the form: one PATCH, an announcement without the key, and the new fingerprint', async () => {
    const { id, view, ackMs } = await openAndFill(h, 'sshkey rails/rails set');
    assert.ok(ackMs < 1000);
    assert.equal(view.callback_id, 'view.sshkey_set');
    assert.deepEqual(JSON.parse(String(view.private_metadata)), {
      d: 'com',
      id: 891,
      s: 'rails/rails',
      c: FAKE_IDENTITY.channelId,
    });

    const body = await submitKey(id, String(view.private_metadata), PRIVATE_KEY, 'deploy <!channel> key');
    assert.equal(body.response_action, 'update');
    assert.match(visibleText(body.view as Json), /Saving the SSH key of `rails\/rails`/);
    const saved = await modalUpdate(h, id, { after: 1 });
    const stored = h.ci.state.sshKeys.get(891);
    assert.ok(stored);
    assert.equal(stored.value, PRIVATE_KEY);
    assert.match(visibleText(saved), new RegExp(`Fingerprint: \`${stored.fingerprint}\``));
    assert.match(visibleText(saved), /deploy &lt;!channel&gt; key/);

    const patch = h.ci.requests.find((r) => r.method === 'PATCH' && r.path === '/settings/ssh_key/891');
    assert.equal(patch?.headers.authorization, 'token token-rkh');
    const post = await h.slack.waitForCall('chat.postMessage', () => true, ANSWER_MS);
    assert.equal(post.args.channel, FAKE_IDENTITY.channelId);
    assert.equal(post.args.text, '<@U0USER> set the SSH key of rails/rails');
    assertSlackAccepted(h);
  });

  it('shows the description and fingerprint of the current key, escaped', async () => {
    const { responseUrl } = await h.command('sshkey rails/rails');
    const text = visibleText(await h.answer(responseUrl, ANSWER_MS));
    assert.match(text, /Custom SSH key of/);
    assert.match(text, /deploy &lt;!channel&gt; key/);
    assert.ok(text.includes(h.ci.state.sshKeys.get(891)?.fingerprint ?? 'missing'));
  });

  it('checks the pasted text looks like a private key before sending anything', async () => {
    const { id, view } = await openAndFill(h, 'sshkey rails/rails set');
    const patches = h.ci.requests.filter((r) => r.method === 'PATCH').length;
    const body = await submitKey(id, String(view.private_metadata), 'ssh-ed25519 AAAA… me@laptop', null);
    assert.equal(body.response_action, 'errors');
    assert.match(String((body.errors as Json).private_key), /whole private key/);
    assert.equal(h.ci.requests.filter((r) => r.method === 'PATCH').length, patches);
  });

  it('says plainly when the service cannot read the key, and changes nothing', async () => {
    const before = h.ci.state.sshKeys.get(891)?.fingerprint;
    const { id, view } = await openAndFill(h, 'sshkey rails/rails set --quiet');
    const posts = h.slack.callsTo('chat.postMessage').length;
    const garbage = '-----BEGIN OPENSSH PRIVATE KEY-----\nbm90IGEga2V5\n-----END OPENSSH PRIVATE KEY-----';
    await submitKey(id, String(view.private_metadata), garbage, null);
    const result = await modalUpdate(h, id, { after: 1 });
    assert.match(visibleText(result), /did not accept that SSH key for rails\/rails.*Nothing was changed/);
    assert.equal(h.ci.state.sshKeys.get(891)?.fingerprint, before);
    assert.equal(h.slack.callsTo('chat.postMessage').length, posts);
  });

  it('does not announce a key set with --quiet', async () => {
    const { id, view } = await openAndFill(h, 'sshkey rails/rails set --quiet');
    assert.equal(JSON.parse(String(view.private_metadata)).q, true);
    const posts = h.slack.callsTo('chat.postMessage').length;
    await submitKey(id, String(view.private_metadata), PRIVATE_KEY, 'quiet one');
    assert.match(visibleText(await modalUpdate(h, id, { after: 1 })), /quiet one/);
    assert.equal(h.slack.callsTo('chat.postMessage').length, posts);
  });

  it('does not show the key to someone without rights on the repository', async () => {
    const { responseUrl } = await h.command('sshkey rails/rails', { userId: 'U0VISITOR' });
    const answer = await h.answer(responseUrl, ANSWER_MS);
    assert.match(String(answer.text), /\(visitor\) is not allowed to read the SSH key of rails\/rails/);
    assert.doesNotMatch(visibleText(answer), /Fingerprint/);
  });

  it('does not open the form for someone without rights on the repository', async () => {
    const { view } = await openAndFill(h, 'sshkey rails/rails set', { userId: 'U0VISITOR' });
    assert.equal(view.callback_id, 'view.info');
    assert.match(
      visibleText(view),
      /Your travis-ci\.com account \(visitor\) is not allowed to set the SSH key of rails\/rails/,
    );
  });

  it('offers a Delete button behind a confirm dialog, then deletes on click and announces it', async () => {
    const { responseUrl } = await h.command('sshkey rails/rails delete');
    const offer = await h.answer(responseUrl, ANSWER_MS);
    assert.equal(offer.response_type, 'ephemeral');
    const button = elementOf(offer, 'sshkey.delete');
    const confirm = button.confirm as { title: { text: string }; text: { text: string } };
    assert.equal(confirm.title.text, 'Delete the SSH key?');
    assert.match(confirm.text.text, /default deploy key/);
    assert.ok(h.ci.state.sshKeys.has(891), 'nothing deleted before the click');

    const { ack, responseUrl: clickUrl } = await h.click({
      actionId: String(button.action_id),
      value: String(button.value),
      message: { ts: '1700000000.000100' },
    });
    assertAckedAtOnce(ack);
    const announcement = await h.answer(clickUrl, ANSWER_MS);
    assert.equal(announcement.response_type, 'in_channel');
    assert.equal(announcement.text, '<@U0USER> deleted the SSH key of rails/rails');
    assert.equal(h.ci.state.sshKeys.has(891), false);
    assertSlackAccepted(h);
  });

  it('has nothing to delete when there is no custom key', async () => {
    const { responseUrl } = await h.command('sshkey delete rails/rails');
    const answer = await h.answer(responseUrl, ANSWER_MS);
    assert.match(String(answer.text), /has no custom SSH key/);
    assert.doesNotMatch(visibleText(answer), /sshkey\.delete/);
  });

  it('refuses a Delete click by someone without rights, and one by someone not linked', async () => {
    h.ci.state.setSshKey(891, { value: PRIVATE_KEY, description: 'keep me' });
    const value = JSON.stringify({ d: 'com', repoId: 891, repo: 'rails/rails' });
    const { responseUrl } = await h.click({
      userId: 'U0VISITOR',
      actionId: 'sshkey.delete',
      value,
      message: { ts: '1700000000.000200' },
    });
    assert.match(
      String((await h.answer(responseUrl, ANSWER_MS)).text),
      /\(visitor\) is not allowed to delete the SSH key of rails\/rails/,
    );
    const requests = h.ci.requests.length;
    const { responseUrl: unlinked } = await h.click({
      userId: 'U0NOBODY',
      actionId: 'sshkey.delete',
      value,
      message: { ts: '1700000000.000300' },
    });
    assert.match(visibleText(await h.answer(unlinked, ANSWER_MS)), /not linked your travis-ci\.com account/);
    assert.equal(h.ci.requests.length, requests);
    assert.ok(h.ci.state.sshKeys.has(891));
  });

  it('asks an unlinked user to link, and opens no form', async () => {
    const opens = h.slack.callsTo('views.open').length;
    const { responseUrl } = await h.command('sshkey rails/rails set', { userId: 'U0NOBODY' });
    assert.match(visibleText(await h.answer(responseUrl, ANSWER_MS)), /account\.link/);
    assert.equal(h.slack.callsTo('views.open').length, opens);
  });

  it('says plainly when the repository does not exist or the service fails', async () => {
    const { responseUrl } = await h.command('sshkey nobody/nothing');
    assert.match(String((await h.answer(responseUrl, ANSWER_MS)).text), /could not find nobody\/nothing/);
    h.ci.fault({ method: 'GET', path: '/settings/ssh_key/891' }, { status: 503, times: 2 });
    const { responseUrl: failing } = await h.command('sshkey rails/rails');
    assert.match(String((await h.answer(failing, ANSWER_MS)).text), /having trouble \(it answered 503\)/);
  });

  it('answers a usage mistake with the usage lines', async () => {
    const { responseUrl } = await h.command('sshkey rails/rails rotate');
    assert.match(String((await h.answer(responseUrl, ANSWER_MS)).text), /\/ci sshkey/);
  });

  it('never lets the private key reach Slack, a log line or Redis', async () => {
    assert.ok(KEY_BODY.length > 20);
    await assertNotLeaked(h, [KEY_BODY], acks);
  });
});
