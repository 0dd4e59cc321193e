import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import type { SlackCall } from '../../fakes/slack/index.js';
import { type Harness, startLinkedHarness } from '../../helpers/app-harness.js';

describe('link previews of build and job links', () => {
  let h: Harness;
  let ts = 1_700_000_000;
  before(async () => {
    h = await startLinkedHarness();
  });
  afterEach(() => assert.deepEqual(h.slack.rejected(), []));
  after(() => h.close());

  const BUILD_URL = 'https://app.travis-ci.com/github/rails/rails/builds/4125095';
  const JOB_URL = 'https://app.travis-ci.com/github/rails/rails/jobs/4125096';

  /** Sends a link_shared event and returns its message ts. */
  async function share(urls: string[], user = 'U0USER', extra: object = {}): Promise<string> {
    ts += 1;
    const messageTs = `${ts}.000100`;
    const ack = await h.event({
      type: 'link_shared',
      channel: 'C0CHANNEL',
      is_bot_user_member: true,
      user,
      message_ts: messageTs,
      links: urls.map((url) => ({ domain: new URL(url).host, url })),
      ...extra,
    });
    assert.equal(ack.status, 200);
    return messageTs;
  }

  const unfurlFor = (messageTs: string) =>
    h.slack.waitForCall('chat.unfurl', (c: SlackCall) => c.args.ts === messageTs);

  it('unfurls a build link into a build card fetched with the sharer’s token', async () => {
    const messageTs = await share([BUILD_URL]);
    const call = await unfurlFor(messageTs);
    assert.equal(call.ok, true);
    assert.equal(call.args.channel, 'C0CHANNEL');
    const preview = JSON.stringify((call.args.unfurls as Record<string, unknown>)[BUILD_URL]);
    assert.match(preview, /rails\/rails #6180/);
    assert.match(preview, /Showing 5 of 12 jobs/);
    assert.match(preview, /build\.restart/);
    assert.ok(
      h.ci.requests.some(
        (r) => r.path === '/builds/4125095' && r.headers.authorization === 'token token-rkh',
      ),
    );
  });

  it('unfurls a job link into a job card, and several links at once', async () => {
    const messageTs = await share([JOB_URL, BUILD_URL]);
    const call = await unfurlFor(messageTs);
    const unfurls = call.args.unfurls as Record<string, unknown>;
    assert.deepEqual(Object.keys(unfurls).sort(), [BUILD_URL, JOB_URL]);
    assert.match(JSON.stringify(unfurls[JOB_URL]), /#6180\.1> failed · rvm 1\.9\.3 · GEM=railties/);
    assert.match(JSON.stringify(unfurls[JOB_URL]), /job\.log/);
  });

  it('answers a link pasted in the composer through its unfurl_id', async () => {
    await share([BUILD_URL], 'U0USER', { unfurl_id: 'Uf0COMPOSER', source: 'composer' });
    const call = await h.slack.waitForCall('chat.unfurl', (c) => c.args.unfurl_id === 'Uf0COMPOSER');
    assert.equal(call.ok, true);
    assert.equal(call.args.source, 'composer');
  });

  it('offers an unlinked sharer, privately, to link, and shows nothing in the channel', async () => {
    const before = h.ci.requests.length;
    const unfurlsBefore = h.slack.callsTo('chat.unfurl').length;
    await share([BUILD_URL], 'U0NOBODY');
    const offer = await h.slack.waitForCall('chat.postEphemeral', (c) => c.args.user === 'U0NOBODY');
    assert.equal(offer.ok, true);
    assert.equal(offer.args.channel, 'C0CHANNEL');
    assert.match(JSON.stringify(offer.args.blocks), /account\.link/);
    assert.match(String(offer.args.text), /Link your travis-ci\.com account/);
    assert.equal(h.slack.callsTo('chat.unfurl').length, unfurlsBefore);
    assert.equal(h.ci.requests.length, before);
  });

  it('ignores links of other hosts and links that are not builds or jobs, and previews nothing the sharer cannot see', async () => {
    const before = h.ci.requests.length;
    await share([
      'https://example.com/github/rails/rails/builds/4125095',
      'https://app.travis-ci.com/github/rails/rails',
    ]);
    await share(['https://app.travis-ci.com/github/rkh/secret-project/builds/9100'], 'U0VISITOR');
    const probe = await share([BUILD_URL]);
    await unfurlFor(probe);
    const previewed = h.slack
      .callsTo('chat.unfurl')
      .flatMap((c) => Object.keys(c.args.unfurls as Record<string, unknown>));
    assert.ok(!previewed.some((url) => url.includes('example.com') || url.includes('secret-project')));
    const ciPaths = h.ci.requests.slice(before).map((r) => `${r.path} ${r.headers.authorization}`);
    assert.ok(ciPaths.includes('/builds/9100 token token-visitor'), 'the visitor’s own token was used');
    assert.ok(!ciPaths.some((p) => p.includes('example')));
  });

  it('keeps a preview of a 300-job build within Slack’s limits', async () => {
    const build = h.ci.state.addBuild(891, { state: 'failed', jobs: 300 });
    const url = `https://app.travis-ci.com/github/rails/rails/builds/${build.id}`;
    const call = await unfurlFor(await share([url]));
    assert.equal(call.ok, true);
    assert.match(JSON.stringify(call.args.unfurls), /Showing 5 of 300 jobs/);
  });
});
