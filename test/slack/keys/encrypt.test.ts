import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { type Harness, startLinkedHarness, visibleText } from '../../helpers/app-harness.js';
import {
  ANSWER_MS,
  ackBody,
  CI_TIMEOUT_MS,
  modalUpdate,
  openAndFill,
  textValue,
  updatesOf,
} from '../../helpers/modals.js';
import { assertNotLeaked } from '../../helpers/secret-leaks.js';
import { assertSlackAccepted } from '../../helpers/slack-messages.js';

type Json = Record<string, unknown>;

const SECRETS = ['hunter2-very-secret', 'p@ss w0rd ünï', 'x'.repeat(150)];

describe('/ci encrypt', () => {
  let h: Harness;
  const acks: string[] = [];
  before(async () => {
    h = await startLinkedHarness({ captureLogs: true, ciRequestTimeoutMs: CI_TIMEOUT_MS });
    h.ci.state.addRepo({ slug: 'rkh/vault', id: 7001 });
    h.ci.state.grant('rkh', 7001, 'admin');
    // The fake makes a repository's key pair on first use; make it now, not inside a timed request.
    h.ci.state.keyOf(7001);
    h.ci.state.keyOf(9001);
  });
  after(() => h.close());

  async function submit(id: string, metadata: string, text: string, userId?: string) {
    const ack = await h.submit({
      ...(userId ? { userId } : {}),
      view: {
        id,
        callbackId: 'view.encrypt',
        privateMetadata: metadata,
        values: { assignments: textValue(text) },
      },
    });
    acks.push(ack.body);
    assert.equal(ack.status, 200);
    return ack;
  }

  function secureValues(view: Json): string[] {
    return [...visibleText(view).matchAll(/- secure: \\"([A-Za-z0-9+/=]+)\\"/g)].map((m) => m[1] ?? '');
  }

  it('opens a form for NAME=value lines, filled with what the repository key allows', async () => {
    const { view, ackMs } = await openAndFill(h, 'encrypt rails/rails');
    assert.ok(ackMs < 1000);
    assert.equal(view.callback_id, 'view.encrypt');
    assert.deepEqual(JSON.parse(String(view.private_metadata)), { d: 'com', s: 'rails/rails', m: 117 });
    assert.match(visibleText(view), /each at most 117 bytes/);
    assert.match(visibleText(view), /fingerprint `foobar`/);
    assertSlackAccepted(h);
  });

  it('turns each line into a secure value the repository can decrypt, shown in the modal only', async () => {
    const { id, view } = await openAndFill(h, 'encrypt rkh/vault');
    const metadata = String(view.private_metadata);
    const responsesBefore = h.slack.responses.length;
    const ack = await submit(id, metadata, `DEPLOY_TOKEN=${SECRETS[0]}\n\nPASSWORD=${SECRETS[1]}`);
    const body = ackBody(ack);
    assert.equal(body.response_action, 'update');
    assert.match(visibleText(body.view as Json), /Encrypting with the public key of `rkh\/vault`/);

    const result = await modalUpdate(h, id, { after: 1 });
    const text = visibleText(result);
    assert.match(text, /env:\\n {2}global:\\n {4}# DEPLOY_TOKEN\\n {4}- secure: \\"/);
    const values = secureValues(result);
    assert.equal(values.length, 2);
    assert.equal(h.ci.state.decryptSecure(7001, values[0] ?? ''), `DEPLOY_TOKEN=${SECRETS[0]}`);
    assert.equal(h.ci.state.decryptSecure(7001, values[1] ?? ''), `PASSWORD=${SECRETS[1]}`);
    assert.equal(h.slack.responses.length, responsesBefore, 'nothing is posted to a channel');
    assert.equal(
      h.slack.callsTo('chat.postMessage').length + h.slack.callsTo('chat.postEphemeral').length,
      0,
    );
    assertSlackAccepted(h);
  });

  it('checks every line at once and answers with a field error that quotes no value', async () => {
    const { id, view } = await openAndFill(h, 'encrypt rails/rails');
    const metadata = String(view.private_metadata);
    const bad = await submit(id, metadata, `${SECRETS[0]}\n1X=y`);
    const body = ackBody(bad);
    assert.equal(body.response_action, 'errors');
    const error = String((body.errors as Json).assignments);
    assert.match(error, /Line 1 has no “=”.*Line 2: a name is letters/);
    assert.doesNotMatch(error, /hunter2/);

    const tooLong = await submit(id, metadata, `BIG=${SECRETS[2]}`);
    const tooLongError = String((ackBody(tooLong).errors as Json).assignments);
    assert.match(
      tooLongError,
      /Line 1: BIG=… is 154 bytes, but this repository's key can encrypt at most 117 bytes/,
    );
    assert.doesNotMatch(tooLongError, /xxxx/);
    assert.equal(updatesOf(h, id), 1, 'the form stays as it is');
  });

  it('says plainly which values did not fit when the key changed after the form opened', async () => {
    const { id, view } = await openAndFill(h, 'encrypt rkh/vault');
    const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 1024 });
    h.ci.state.setRepoKey(7001, {
      publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
      privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      fingerprint: 'smaller-key',
    });
    await submit(id, String(view.private_metadata), `BIG=${SECRETS[2]}\nSMALL=ok`);
    const result = await modalUpdate(h, id, { after: 1 });
    const text = visibleText(result);
    assert.match(text, /Not encrypted, too long/);
    assert.match(text, /BIG=… is 154 bytes, but this repository's key can encrypt at most 117 bytes/);
    const [small] = secureValues(result);
    assert.equal(h.ci.state.decryptSecure(7001, small ?? ''), 'SMALL=ok');
    assert.match(text, /smaller-key/);
  });

  it('asks an unlinked user to link, opens no form and sends nothing to the CI service', async () => {
    const before = h.ci.requests.length;
    const opens = h.slack.callsTo('views.open').length;
    const { responseUrl } = await h.command('encrypt rails/rails', { userId: 'U0NOBODY' });
    assert.match(
      visibleText(await h.answer(responseUrl, ANSWER_MS)),
      /not linked your travis-ci\.com account/,
    );
    assert.equal(h.slack.callsTo('views.open').length, opens);
    assert.equal(h.ci.requests.length, before);
  });

  it('shows in the modal that the repository does not exist', async () => {
    const { view } = await openAndFill(h, 'encrypt nobody/nothing');
    assert.equal(view.callback_id, 'view.info');
    assert.match(visibleText(view), /could not find nobody\/nothing on travis-ci\.com/);
  });

  it('does not offer to encrypt for a private repository the user cannot see', async () => {
    const { view } = await openAndFill(h, 'encrypt rkh/secret-project', { userId: 'U0VISITOR' });
    assert.match(visibleText(view), /could not find rkh\/secret-project.*\(visitor\) cannot see it/);
  });

  it('shows a 5xx of the CI service in the modal, at opening and after submitting', async () => {
    h.ci.fault({ method: 'GET', path: '/repos/rails/rails' }, { status: 502, times: 2 });
    const { view: failed } = await openAndFill(h, 'encrypt rails/rails');
    assert.match(visibleText(failed), /travis-ci\.com is having trouble \(it answered 502\)/);

    const { id, view } = await openAndFill(h, 'encrypt rkh/vault');
    h.ci.fault({ method: 'GET', path: '/repos/rkh/vault/key' }, { status: 503, times: 2 });
    await submit(id, String(view.private_metadata), `A=${SECRETS[0]}`);
    const result = await modalUpdate(h, id, { after: 1 });
    assert.match(visibleText(result), /having trouble \(it answered 503\)/);
    assert.doesNotMatch(visibleText(result), /secure:/);
  });

  it('answers a usage mistake with the usage line', async () => {
    const { responseUrl } = await h.command('encrypt');
    assert.match(String((await h.answer(responseUrl, ANSWER_MS)).text), /\/ci encrypt/);
    const { responseUrl: extra } = await h.command('encrypt rails/rails FOO=bar');
    assert.match(String((await h.answer(extra, ANSWER_MS)).text), /\/ci encrypt/);
  });

  it('refuses a submission whose form data is not ours', async () => {
    const ack = await submit('V0STALE', '{"d":"com"}', 'A=b');
    assert.match(String((ackBody(ack).errors as Json).assignments), /form expired/);
  });

  it('leaks no plain value into Slack calls, acknowledgements, logs or Redis', async () => {
    assert.ok(h.logs.length > 0, 'logs are captured');
    await assertNotLeaked(h, SECRETS, acks);
    assertSlackAccepted(h);
  });
});
