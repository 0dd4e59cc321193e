import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { type Harness, startLinkedHarness } from '../../helpers/app-harness.js';
import { shownText } from '../../helpers/slack-messages.js';

describe('/ci migrate without the old deployment configured', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness();
  });
  after(() => h.close());

  it('says that both deployments are needed, and asks nothing', async () => {
    const before = h.ci.requests.length;
    const { ack, responseUrl } = await h.command('migrate rails/rails');
    assert.ok(ack.ms < 1000);
    assert.match(
      shownText(await h.answer(responseUrl)),
      /Migration moves repositories from the open-source deployment \(travis-ci\.org\) to the hosted one \(travis-ci\.com\), and this app does not have both configured/,
    );
    assert.equal(h.ci.requests.length, before);
    assert.deepEqual(h.slack.rejected(), []);
  });
});
