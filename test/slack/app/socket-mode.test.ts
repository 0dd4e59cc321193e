import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import { type Harness, startHarness, visibleText } from '../../helpers/app-harness.js';
import { slashCommandBody } from '../../helpers/slack-requests.js';

describe('the app in Socket Mode', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness({ env: { SLACK_APP_TOKEN: FAKE_IDENTITY.appToken } });
  });
  after(() => h.close());

  it('connects with the app token and answers /ci help through the socket', async () => {
    await h.slack.waitForCall('apps.connections.open', () => true, 5_000);
    for (let i = 0; i < 100 && h.slack.socketMode.connections() === 0; i++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    assert.equal(h.slack.socketMode.connections(), 1);
    const responseUrl = h.slack.responseUrl();
    const payload = Object.fromEntries(new URLSearchParams(slashCommandBody({ text: 'help', responseUrl })));
    const started = performance.now();
    const ack = await h.slack.socketMode.send('slash_commands', payload);
    assert.ok(performance.now() - started < 1_000, 'acknowledged at once');
    assert.ok(ack, 'the envelope was acknowledged');
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(visibleText(answer), /\/ci builds/);
  });
});
