import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { WorkLimiter } from '../../../src/slack/work-limiter.js';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import { type Harness, SIGNING_SECRET, startHarness, visibleText } from '../../helpers/app-harness.js';
import { postToApp, slashCommandBody } from '../../helpers/slack-requests.js';

describe('the app shell', () => {
  let h: Harness;
  before(async () => {
    h = await startHarness();
  });
  after(() => h.close());

  it('answers /healthz, /readyz and /metrics', async () => {
    assert.equal((await fetch(`${h.baseUrl}/healthz`)).status, 200);
    const ready = await fetch(`${h.baseUrl}/readyz`);
    assert.equal(ready.status, 200);
    assert.deepEqual(await ready.json(), { ok: true, store: 'redis' });
    const metrics = await (await fetch(`${h.baseUrl}/metrics`)).text();
    assert.match(metrics, /slack_ack_duration_seconds/);
  });

  it('rejects forged signatures and stale timestamps', async () => {
    const body = slashCommandBody({ text: 'help', responseUrl: h.slack.responseUrl() });
    const forged = await postToApp(h.eventsUrl, body, {
      signingSecret: SIGNING_SECRET,
      forgeSignature: true,
    });
    assert.equal(forged.status, 401);
    const stale = await postToApp(h.eventsUrl, body, {
      signingSecret: SIGNING_SECRET,
      timestamp: Math.floor(Date.now() / 1000) - 6 * 60,
    });
    assert.equal(stale.status, 401);
    assert.equal(h.slack.responses.length, 0, 'nothing was answered for a rejected request');
  });

  it('acknowledges /ci help at once and answers privately with the command list', async () => {
    const { ack, responseUrl } = await h.command('help');
    assert.equal(ack.status, 200);
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(visibleText(answer), /\/ci builds/);
  });

  it('answers an unknown command with a suggestion', async () => {
    const { responseUrl } = await h.command('bulds rails/rails');
    const answer = await h.answer(responseUrl);
    assert.match(String(answer.text), /builds/);
  });

  it('tells an unlinked user to link, with a Link button, without calling the CI service', async () => {
    const before = h.ci.requests.length;
    const { responseUrl } = await h.command('whoami', { userId: 'U0NOBODY' });
    const answer = await h.answer(responseUrl);
    assert.match(visibleText(answer), /not linked a CI account/);
    assert.match(visibleText(answer), /account\.link/);
    assert.equal(h.ci.requests.length, before);
  });

  it('opens the login modal within the trigger window', async () => {
    const { responseUrl } = await h.command('login');
    const call = await h.slack.waitForCall('views.open');
    assert.equal(call.ok, true, `views.open failed: ${call.error}`);
    assert.match(JSON.stringify(call.args), /view\.login/);
    assert.equal(h.slack.responses.filter((r) => r.url === responseUrl).length, 0);
  });

  it('links an account from the modal after checking the token, and whoami shows it', async () => {
    const ack = await h.submit({
      userId: 'U0LINKER',
      view: {
        id: 'V0LOGIN',
        callbackId: 'view.login',
        privateMetadata: JSON.stringify({ d: 'com' }),
        values: {
          ci_token: { value: { type: 'plain_text_input', value: 'token-rkh' } },
          github_token: { value: { type: 'plain_text_input', value: null } },
        },
      },
    });
    assert.equal(ack.status, 200);
    const body = JSON.parse(ack.body) as { response_action: string; view?: unknown };
    assert.equal(body.response_action, 'update');
    assert.match(JSON.stringify(body.view), /Linked as \*rkh\*/);
    const account = await h.services.accounts.get(FAKE_IDENTITY.teamId, 'U0LINKER', 'com');
    assert.equal(account?.ciLogin, 'rkh');
    assert.ok(
      h.ci.requests.some((r) => r.path === '/users' && r.headers.authorization === 'token token-rkh'),
    );

    const { responseUrl } = await h.command('whoami', { userId: 'U0LINKER' });
    assert.match(visibleText(await h.answer(responseUrl)), /rkh/);
  });

  it('shows a wrong token inline and stores nothing', async () => {
    const ack = await h.submit({
      userId: 'U0WRONG',
      view: {
        id: 'V0LOGIN2',
        callbackId: 'view.login',
        privateMetadata: JSON.stringify({ d: 'com' }),
        values: { ci_token: { value: { type: 'plain_text_input', value: 'not-a-token' } } },
      },
    });
    const body = JSON.parse(ack.body) as { response_action: string; errors?: Record<string, string> };
    assert.equal(body.response_action, 'errors');
    assert.match(body.errors?.ci_token ?? '', /did not accept that token/);
    assert.equal(await h.services.accounts.get(FAKE_IDENTITY.teamId, 'U0WRONG', 'com'), undefined);
  });

  it('exchanges a GitHub token once and never stores it', async () => {
    const ack = await h.submit({
      userId: 'U0GITHUB',
      view: {
        id: 'V0LOGIN3',
        callbackId: 'view.login',
        privateMetadata: JSON.stringify({ d: 'com' }),
        values: { github_token: { value: { type: 'plain_text_input', value: 'github-token-rkh' } } },
      },
    });
    assert.equal((JSON.parse(ack.body) as { response_action: string }).response_action, 'update');
    const exchange = h.ci.requests.filter((r) => r.path === '/auth/github');
    assert.equal(exchange.length, 1);
    const raw = await h.kv.hgetall(`linked:${FAKE_IDENTITY.teamId}:U0GITHUB`);
    assert.doesNotMatch(JSON.stringify(raw), /github-token-rkh|token-rkh/);
  });

  it('still acknowledges at once when too busy, and says so instead of queueing forever', async () => {
    const original = h.services.work;
    h.services.work = new WorkLimiter(0, 0);
    try {
      const before = h.ci.requests.length;
      const { ack, responseUrl } = await h.command('builds rails/rails');
      assert.equal(ack.status, 200);
      assert.match(String((await h.answer(responseUrl)).text), /too busy/);
      const builds = h.ci.requests.slice(before).filter((r) => r.path.includes('/builds'));
      assert.deepEqual(builds, [], 'the work never started');
    } finally {
      h.services.work = original;
    }
  });

  it('unlinks with /ci logout', async () => {
    await h.link({ userId: 'U0LEAVER' });
    const { responseUrl } = await h.command('logout', { userId: 'U0LEAVER' });
    assert.match(visibleText(await h.answer(responseUrl)), /Unlinked your travis-ci\.com account/);
    assert.equal(await h.services.accounts.get(FAKE_IDENTITY.teamId, 'U0LEAVER', 'com'), undefined);
  });
});
