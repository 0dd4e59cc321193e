import assert from 'node:assert/strict';
import type { ChildProcess } from 'node:child_process';
import { after, before, describe, it } from 'node:test';
import { assertAckedAtOnce, type Harness, startHarness } from '../../helpers/app-harness.js';
import { freePort, startRedis, stop } from '../../helpers/own-redis.js';
import { shownText } from '../../helpers/slack-messages.js';

/** The app's Redis dies under it: requests are still acknowledged at once and answered plainly. */
describe('commands while Redis is down', () => {
  const STORE_DOWN =
    /My storage is not answering right now, so nothing was done\. Please try again in a minute\./;
  let redis: ChildProcess;
  let h: Harness;
  before(async () => {
    const port = await freePort();
    redis = await startRedis(port);
    h = await startHarness({ redisUrl: `redis://127.0.0.1:${port}` });
    await h.link();
    await stop(redis, 'SIGKILL');
  });
  after(async () => {
    await h.close();
    await stop(redis, 'SIGKILL');
  });

  it('acknowledges each command at once and answers that storage is down', async () => {
    const commands = ['whoami', 'logs 55501 --follow', 'logs 55501 --stop', 'subscriptions'];
    // Sent together: each waits for Redis's command timeout before it can answer.
    const sent = await Promise.all(commands.map((command) => h.command(command, { channelId: 'C0DOWN' })));
    for (const [index, { ack, responseUrl }] of sent.entries()) {
      assertAckedAtOnce(ack, commands[index]);
      const answer = await h.slack.waitForResponse((r) => r.url === responseUrl, 10_000);
      assert.match(shownText(answer.body), STORE_DOWN, commands[index]);
    }
  });

  it('posted nothing in the channel', () => {
    assert.deepEqual(h.slack.messages('C0DOWN'), []);
  });
});
