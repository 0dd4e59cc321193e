import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Harness, startHarness, visibleText } from '../../helpers/app-harness.js';
import { modalUpdate, openedModal, submitModal, textValue, updatesOf } from '../../helpers/modals.js';
import {
  assertSlackAccepted,
  elementOf,
  type FoundElement,
  type Message,
} from '../../helpers/slack-messages.js';

/**
 * Every repository command, button and modal while the CI service fails (503) or is slower than the
 * client's timeout: Slack's request is still acknowledged at once, and the user reads a clear sentence.
 */

interface Outcome {
  name: string;
  ackMs: number;
  text: string;
}

type Scenario = () => Promise<Outcome>;

const ANSWER_WAIT_MS = 10_000;

describe('repository commands when the CI service is down or slow', () => {
  let h: Harness;
  let envButton: FoundElement;
  let cacheButton: FoundElement;
  let settingsButton: FoundElement;
  let envModal: { id: string; view: Message };
  let settingsEditor: { id: string; view: Message };

  before(async () => {
    h = await startHarness();
    await h.link();
    const env = await h.command('env rails/rails');
    envButton = elementOf(await h.answer(env.responseUrl), 'env.delete');
    const caches = await h.command('caches rails/rails delete');
    cacheButton = elementOf(await h.answer(caches.responseUrl), 'caches.delete');
    const repo = await h.command('repo rails/rails');
    settingsButton = elementOf(await h.answer(repo.responseUrl), 'settings.open');
    let since = h.slack.calls.length;
    await h.command('env rails/rails set TROUBLE_VAR');
    envModal = await openedModal(h, { since });
    since = h.slack.calls.length;
    await h.command('settings rails/rails');
    const opened = await openedModal(h, { since });
    settingsEditor = { id: opened.id, view: await modalUpdate(h, opened.id, { matching: /view\.settings/ }) };
  });
  after(() => h.close());

  const command =
    (text: string): Scenario =>
    async () => {
      const { ack, responseUrl } = await h.command(text);
      return { name: text, ackMs: ack.ms, text: visibleText(await h.answer(responseUrl, ANSWER_WAIT_MS)) };
    };

  const click =
    (name: string, button: () => FoundElement): Scenario =>
    async () => {
      const { ack, responseUrl } = await h.click({
        actionId: String(button().action_id),
        value: String(button().value),
      });
      return { name, ackMs: ack.ms, text: visibleText(await h.answer(responseUrl, ANSWER_WAIT_MS)) };
    };

  /** A command or click that opens "Loading…" with its trigger and then fills the modal. */
  const loadingModal =
    (name: string, send: () => Promise<{ ms: number; triggerId: string }>): Scenario =>
    async () => {
      const { ms, triggerId } = await send();
      const { id } = await openedModal(h, { triggerId }, ANSWER_WAIT_MS);
      const view = await modalUpdate(h, id, { matching: /:warning:/, timeoutMs: ANSWER_WAIT_MS });
      return { name, ackMs: ms, text: JSON.stringify(view) };
    };

  const submission =
    (
      name: string,
      modal: () => { id: string; view: Message },
      values: Record<string, Record<string, object>>,
    ): Scenario =>
    async () => {
      const since = updatesOf(h, modal().id);
      const ack = await submitModal(h, modal(), values);
      const updated = await modalUpdate(h, modal().id, {
        matching: /:warning:/,
        timeoutMs: ANSWER_WAIT_MS,
        after: since,
      });
      return { name, ackMs: ack.ms, text: JSON.stringify(updated) };
    };

  const scenarios = (): Scenario[] => [
    command('repo rails/rails'),
    command('enable rails/rails'),
    command('disable rails/rails'),
    command('branches rails/rails'),
    command('requests rails/rails'),
    command('env rails/rails'),
    command('env rails/rails unset encrypted_randomhex_key'),
    command('caches rails/rails'),
    command('caches rails/rails delete'),
    command('use rails/rails'),
    click('Unset button', () => envButton),
    click('Delete caches button', () => cacheButton),
    loadingModal('settings command', async () => {
      const { ack, triggerId } = await h.command('settings rails/rails');
      return { ms: ack.ms, triggerId };
    }),
    loadingModal('Settings button', async () => {
      const triggerId = h.slack.issueTriggerId();
      const { ack } = await h.click({
        triggerId,
        actionId: String(settingsButton.action_id),
        value: String(settingsButton.value),
      });
      return { ms: ack.ms, triggerId };
    }),
    submission('env set submit', () => envModal, { env_value: textValue('a value') }),
    submission('settings submit', () => settingsEditor, {
      'settings.value.maximum_number_of_builds': { value: { type: 'number_input', value: '7' } },
    }),
  ];

  /** One after another: a burst of failures at once would measure the machine, not the ack. */
  async function runEach(): Promise<Outcome[]> {
    const outcomes: Outcome[] = [];
    for (const run of scenarios()) outcomes.push(await run());
    return outcomes;
  }

  /** All at once: each waits out the timeouts, and the acks come while the CI service is quiet. */
  async function runAll(): Promise<Outcome[]> {
    return Promise.all(scenarios().map((run) => run()));
  }

  it('503: every answer says the service is having trouble', async () => {
    h.ci.fault({ path: /.*/ }, { status: 503 });
    try {
      for (const outcome of await runEach()) {
        assert.ok(outcome.ackMs < 1000, `${outcome.name}: ack took ${outcome.ackMs} ms`);
        assert.match(outcome.text, /travis-ci\.com is having trouble \(it answered 503\)/, outcome.name);
      }
    } finally {
      h.ci.clearFaults();
    }
    assertSlackAccepted(h);
  });

  it('slower than the timeout: acks at once, then says it did not answer in time', async () => {
    h.ci.fault({ path: /.*/ }, { delayMs: 2_000 });
    try {
      for (const outcome of await runAll()) {
        assert.ok(outcome.ackMs < 1000, `${outcome.name}: ack took ${outcome.ackMs} ms`);
        assert.match(outcome.text, /travis-ci\.com did not answer in time/, outcome.name);
      }
    } finally {
      h.ci.clearFaults();
    }
    assertSlackAccepted(h);
  });
});
