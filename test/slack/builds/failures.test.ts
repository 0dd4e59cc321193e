import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { assertAckedAtOnce, type Harness, startHarness } from '../../helpers/app-harness.js';
import { elementOf, shownText } from '../../helpers/slack-messages.js';

/** The CI service down (5xx) or slow (beyond the request timeout): acks stay immediate, answers clear. */
describe('builds and jobs when the CI service fails', () => {
  const TIMEOUT_MS = 300;
  let h: Harness;
  before(async () => {
    h = await startHarness({ ciRequestTimeoutMs: TIMEOUT_MS });
    await h.link();
  });
  afterEach(() => {
    h.ci.clearFaults();
    assert.deepEqual(h.slack.rejected(), []);
  });
  after(() => h.close());

  const DOWN =
    /travis-ci\.com is having trouble \(it answered 503\)\. Nothing was changed; please try again in a minute\./;
  const SLOW = /travis-ci\.com did not answer in time\. Nothing was changed/;
  const COMMANDS = [
    'status rails/rails',
    'builds rails/rails',
    'build rails/rails#6180',
    'jobs --state started',
    'logs rails/rails#6180.1',
    'logs rails/rails#6180.1 --follow',
    'logs rails/rails#6180.1 --stop',
    'restart rails/rails#6180',
    'cancel rails/rails#6180',
  ];

  it('says the service is having trouble when it answers 5xx, for every command', async () => {
    h.ci.fault({ path: /^\/(repos|builds|jobs)/ }, { status: 503 });
    for (const command of COMMANDS) {
      const { ack, responseUrl } = await h.command(command);
      assertAckedAtOnce(ack, command);
      assert.match(shownText(await h.answer(responseUrl)), DOWN, command);
    }
  });

  it('acknowledges at once and says the service did not answer when it is slow, for every command', async () => {
    h.ci.fault({ method: 'GET', path: /^\/(repos|builds|jobs)/ }, { delayMs: TIMEOUT_MS * 3 });
    const sent = await Promise.all(COMMANDS.map((command) => h.command(command)));
    for (const [index, { ack, responseUrl }] of sent.entries()) {
      assertAckedAtOnce(ack, COMMANDS[index]);
      // Sent all at once, so an answer may already be in: take the first one, recorded or to come.
      const answer = await h.slack.waitForResponse((r) => r.url === responseUrl, 5_000);
      assert.match(shownText(answer.body), SLOW, COMMANDS[index]);
    }
  });

  it('says the outcome is unknown when a restart times out', async () => {
    const build = h.ci.state.addBuild(891, { state: 'failed' });
    h.ci.fault({ method: 'POST', path: `/builds/${build.id}/restart` }, { delayMs: TIMEOUT_MS * 3 });
    const { ack, responseUrl } = await h.command(`restart ${build.id}`);
    assertAckedAtOnce(ack);
    assert.match(
      shownText(await h.answer(responseUrl, 5_000)),
      new RegExp(
        `did not answer in time\\. I could not tell whether your request to restart build #${build.number} of rails/rails went through; check before trying again\\.`,
      ),
    );
  });

  it('acknowledges a click at once and answers clearly when the service is down or slow', async () => {
    const card = await h.answer((await h.command('build rails/rails#6180')).responseUrl);
    const restart = elementOf(card, 'build.restart');
    h.ci.fault({ path: /^\/(repos|builds)/ }, { status: 503 });
    const down = await h.click({
      actionId: restart.action_id,
      value: restart.value,
      message: { ts: '4.000001' },
    });
    assertAckedAtOnce(down.ack);
    assert.match(shownText(await h.answer(down.responseUrl)), DOWN);
    h.ci.clearFaults();

    const log = elementOf(card, 'job.log');
    h.ci.fault({ method: 'GET', path: /^\/jobs/ }, { delayMs: TIMEOUT_MS * 3 });
    const slow = await h.click({ actionId: log.action_id, value: log.value, message: { ts: '4.000002' } });
    assertAckedAtOnce(slow.ack);
    assert.match(shownText(await h.answer(slow.responseUrl, 5_000)), SLOW);
  });
});
