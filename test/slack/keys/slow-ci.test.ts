import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { after, before, describe, it } from 'node:test';
import { assertAckedAtOnce, type Harness, startHarness, visibleText } from '../../helpers/app-harness.js';
import { ackBody, modalUpdate, openedModal, submitModal, textValue } from '../../helpers/modals.js';
import { assertSlackAccepted } from '../../helpers/slack-messages.js';

/**
 * The CI service answering slower than the harness's 1.5 s request timeout, for every command,
 * button, form and the shortcut of this group: Slack still gets its acknowledgement at once, and
 * the user a sentence saying the service did not answer (and, for a change, that its outcome is
 * unknown). The tests run concurrently, each slowing down a path of its own; their requests to the
 * app are sent one at a time, so that each ack is timed on its own and not behind a dozen others.
 */

const SLOW = { delayMs: 2_000 };
// Generous: each answer waits out a timeout and a retry, and the full suite runs files side by side.
const WAIT_MS = 15_000;
const PRIVATE_KEY = generateKeyPairSync('ed25519')
  .privateKey.export({ type: 'pkcs8', format: 'pem' })
  .toString();

/** Runs `send` once every earlier one has finished (the waits for answers still overlap). */
let turn: Promise<unknown> = Promise.resolve();
function oneAtATime<T>(send: () => Promise<T>): Promise<T> {
  const result = turn.then(send);
  turn = result.catch(() => undefined);
  return result;
}

describe('a slow CI service', { concurrency: true }, () => {
  let h: Harness;
  const repos = new Map<string, number>();
  before(async () => {
    h = await startHarness();
    await h.link();
    for (const name of [
      'encrypt-open',
      'encrypt-submit',
      'sshkey-show',
      'sshkey-set',
      'sshkey-delete',
      'regen',
    ]) {
      const repo = h.ci.state.addRepo({ slug: `slow/${name}` });
      h.ci.state.grant('rkh', repo.id, 'admin');
      repos.set(name, repo.id);
      // The fake makes a key pair on first use; make it now, not inside a timed request.
      h.ci.state.keyOf(repo.id);
    }
    h.ci.state.setSshKey(repos.get('sshkey-delete') ?? 0, { value: PRIVATE_KEY });
    // Both lint tests post to /lint.
    h.ci.fault({ method: 'POST', path: '/lint' }, { ...SLOW, times: 2 });
  });
  after(() => {
    assertSlackAccepted(h);
    return h.close();
  });

  const timedOut = /travis-ci\.com did not answer in time\. Nothing was changed/;
  const outcomeUnknown = (action: string) =>
    new RegExp(`did not answer in time\\. I could not tell whether your request to ${action} went through`);

  async function command(text: string) {
    const { ack, responseUrl } = await oneAtATime(() => h.command(text));
    assertAckedAtOnce(ack);
    return String((await h.answer(responseUrl, WAIT_MS)).text);
  }

  async function click(actionId: string, value: object) {
    const { ack, responseUrl } = await oneAtATime(() =>
      h.click({ actionId, value: JSON.stringify(value), message: { ts: '1700000000.000100' } }),
    );
    assertAckedAtOnce(ack);
    return String((await h.answer(responseUrl, WAIT_MS)).text);
  }

  /** `/ci <text>` and the filled modal, with the command sent in turn. */
  async function openForm(text: string) {
    const { ack, triggerId } = await oneAtATime(() => h.command(text));
    const { id } = await openedModal(h, { triggerId });
    return { id, view: await modalUpdate(h, id, { timeoutMs: WAIT_MS }), ackMs: ack.ms };
  }

  it('pubkey', async () => {
    h.ci.fault({ method: 'GET', path: '/repos/rails/rails/key' }, { ...SLOW, times: 2 });
    assert.match(await command('pubkey rails/rails'), timedOut);
  });

  it('the Regenerate key button', async () => {
    h.ci.fault({ method: 'POST', path: '/repos/slow/regen/key' }, { ...SLOW, times: 1 });
    const text = await click('pubkey.regenerate', { d: 'com', repo: 'slow/regen' });
    assert.match(text, outcomeUnknown('regenerate the key of slow/regen'));
  });

  it('opening the encrypt form', async () => {
    h.ci.fault({ method: 'GET', path: '/repos/slow/encrypt-open' }, { ...SLOW, times: 2 });
    const { view, ackMs } = await openForm('encrypt slow/encrypt-open');
    assert.ok(ackMs < 1000, `ack took ${ackMs} ms`);
    assert.match(visibleText(view), timedOut);
  });

  it('submitting the encrypt form', async () => {
    const { id, view } = await openForm('encrypt slow/encrypt-submit');
    h.ci.fault({ method: 'GET', path: '/repos/slow/encrypt-submit/key' }, { ...SLOW, times: 2 });
    const ack = await oneAtATime(() => submitModal(h, { id, view }, { assignments: textValue('A=b') }));
    assertAckedAtOnce(ack);
    assert.equal(ackBody(ack).response_action, 'update');
    assert.match(visibleText(await modalUpdate(h, id, { after: 1, timeoutMs: WAIT_MS })), timedOut);
  });

  it('sshkey', async () => {
    const id = repos.get('sshkey-show');
    h.ci.fault({ method: 'GET', path: `/settings/ssh_key/${id}` }, { ...SLOW, times: 2 });
    assert.match(await command('sshkey slow/sshkey-show'), timedOut);
  });

  it('submitting the SSH key form', async () => {
    const { id, view } = await openForm('sshkey slow/sshkey-set set');
    h.ci.fault(
      { method: 'PATCH', path: `/settings/ssh_key/${repos.get('sshkey-set')}` },
      { ...SLOW, times: 1 },
    );
    const ack = await oneAtATime(() => submitModal(h, { id, view }, { private_key: textValue(PRIVATE_KEY) }));
    assertAckedAtOnce(ack);
    const result = await modalUpdate(h, id, { after: 1, timeoutMs: WAIT_MS });
    assert.match(visibleText(result), outcomeUnknown('set the SSH key of slow/sshkey-set'));
  });

  it('the Delete SSH key button', async () => {
    const repoId = repos.get('sshkey-delete');
    // DELETE is idempotent, so the client tries twice.
    h.ci.fault({ method: 'DELETE', path: `/settings/ssh_key/${repoId}` }, { ...SLOW, times: 2 });
    const text = await click('sshkey.delete', { d: 'com', repoId, repo: 'slow/sshkey-delete' });
    assert.match(text, outcomeUnknown('delete the SSH key of slow/sshkey-delete'));
  });

  it('submitting the lint form', async () => {
    const { triggerId } = await oneAtATime(() => h.command('lint'));
    const { id, view } = await openedModal(h, { triggerId });
    const ack = await oneAtATime(() => submitModal(h, { id, view }, { config: textValue('language: ruby') }));
    assertAckedAtOnce(ack);
    assert.match(visibleText(await modalUpdate(h, id, { timeoutMs: WAIT_MS })), /did not answer in time/);
  });

  it('the lint shortcut', async () => {
    const responseUrl = h.slack.responseUrl();
    const ack = await oneAtATime(() =>
      h.shortcut({
        callbackId: 'shortcut.lint_config',
        message: { ts: '1700000000.000200', text: '```language: ruby```' },
        responseUrl,
      }),
    );
    assertAckedAtOnce(ack);
    assert.match(String((await h.answer(responseUrl, WAIT_MS)).text), /did not answer in time/);
  });

  it('accounts', async () => {
    h.ci.fault({ method: 'GET', path: '/accounts' }, { ...SLOW, times: 2 });
    assert.match(await command('accounts'), timedOut);
  });

  it('broadcasts', async () => {
    h.ci.fault({ method: 'GET', path: '/broadcasts' }, { ...SLOW, times: 2 });
    assert.match(await command('broadcasts'), timedOut);
  });

  it('permissions', async () => {
    h.ci.fault({ method: 'GET', path: '/users/permissions' }, { ...SLOW, times: 2 });
    assert.match(await command('permissions'), timedOut);
  });

  it('sync', async () => {
    h.ci.fault({ method: 'POST', path: '/users/sync' }, { ...SLOW, times: 1 });
    assert.match(await command('sync'), outcomeUnknown('start a sync of your account'));
  });
});
