import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import {
  assertAckedAtOnce,
  type Harness,
  SIGNING_SECRET,
  startLinkedHarness,
} from '../../helpers/app-harness.js';
import { elementOf, hasElement, shownText } from '../../helpers/slack-messages.js';
import { blockActionsBody, postToApp } from '../../helpers/slack-requests.js';

describe('/ci build and the build card', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness();
  });
  afterEach(() => assert.deepEqual(h.slack.rejected(), []));
  after(() => h.close());

  it('shows a build by number with its matrix, allow_failure marked, and its buttons', async () => {
    h.ci.state.updateJob(4125098, { allowFailure: true });
    const { ack, responseUrl } = await h.command('build rails/rails#6180');
    assertAckedAtOnce(ack);
    const card = await h.answer(responseUrl);
    assert.equal(card.response_type, 'ephemeral');
    const text = shownText(card);
    assert.match(text, /rails\/rails #6180/);
    assert.match(text, /:x: \*Failed\* · 1h 23m 39s/);
    assert.match(text, /<https:\/\/github\.com\/rails\/rails\/compare\/[^|]+\|master> · push/);
    assert.match(text, /_Associaton -&gt; Association_ · Steve Klabnik/);
    assert.match(text, /\|#6180\.1> failed · rvm 1\.9\.3 · GEM=railties · 14m 16s/);
    assert.match(text, /\|#6180\.3> passed · rvm 1\.9\.3 · GEM=ar:mysql · 12m 15s · _allowed to fail_/);
    for (const id of ['build.restart', 'build.cancel', 'job.log', 'job.restart'])
      assert.ok(hasElement(card, id), id);
    assert.ok(elementOf(card, 'build.cancel').confirm, 'cancel asks first');
    assert.equal(hasElement(card, 'job.follow'), false, 'finished jobs have nothing to follow');
  });

  it('reads a build by id, by branch and from a pasted link', async () => {
    for (const ref of [
      '4125095',
      'rails/rails@master',
      '<https://app.travis-ci.com/github/rails/rails/builds/4125095>',
    ]) {
      const { responseUrl } = await h.command(`show ${ref}`);
      assert.match(shownText(await h.answer(responseUrl)), /rails\/rails #6180/, ref);
    }
  });

  it('fits a 300-job build into one message, failed jobs first', async () => {
    const jobs = Array.from({ length: 300 }, (_, i) => ({
      state: (i + 1) % 60 === 0 ? 'failed' : 'passed',
      config: { language: 'node_js', node_js: String(10 + (i % 12)), env: `SHARD=${i + 1}` },
    }));
    const build = h.ci.state.addBuild(891, { state: 'failed', jobs, message: 'Big matrix' });
    const { responseUrl } = await h.command(`build ${build.id}`);
    const card = await h.answer(responseUrl);
    const text = shownText(card);
    const listed = [...text.matchAll(/\|#\d+\.(\d+)> /g)].map((m) => Number(m[1]));
    assert.deepEqual(listed.slice(0, 5), [60, 120, 180, 240, 300]);
    assert.match(text, new RegExp(`Showing ${listed.length} of 300 jobs, failed first`));
    assert.match(text, /node_js \d+ · SHARD=60/);
  });

  it('shows a job log from the card’s Log button, as the person who clicks', async () => {
    const { responseUrl } = await h.command('build rails/rails#6180');
    const card = await h.answer(responseUrl);
    const log = elementOf(card, 'job.log');
    const click = await h.click({ actionId: log.action_id, value: log.value, message: { ts: '2.000001' } });
    const answer = await h.answer(click.responseUrl);
    assert.match(String(answer.text), /\*Log of job <[^|]+\|#6180\.1> of rails\/rails\*/);
    assert.match(String(answer.text), /```\n\$ export GEM=railties\n```/);
    assert.ok(
      h.ci.requests.some(
        (r) => r.path === '/jobs/4125096/log' && r.headers.authorization === 'token token-rkh',
      ),
    );
  });

  it('opens the card from the App Home Details button in the user’s DM', async () => {
    const body = blockActionsBody({
      actionId: 'build.show:com.891',
      value: JSON.stringify({ d: 'com', id: 4125095 }),
      view: { id: 'VHOME1', callbackId: '', type: 'home' },
    });
    const ack = await postToApp(h.eventsUrl, body, { signingSecret: SIGNING_SECRET });
    assert.equal(ack.status, 200);
    const call = await h.slack.waitForCall('chat.postMessage', (c) => c.args.channel === 'U0USER');
    assert.equal(call.ok, true);
    assert.match(JSON.stringify(call.args.blocks), /rails\/rails #6180/);
  });

  it('asks an unlinked user to link and sends nothing to the CI service', async () => {
    const before = h.ci.requests.length;
    const { responseUrl } = await h.command('build rails/rails#6180', { userId: 'U0NOBODY' });
    const answer = await h.answer(responseUrl);
    assert.ok(hasElement(answer, 'account.link'));
    assert.equal(h.ci.requests.length, before);
  });

  it('says when a build is not found or not visible', async () => {
    const missing = await h.command('build rails/rails#99999');
    assert.match(
      shownText(await h.answer(missing.responseUrl)),
      /I could not find build #99999 of rails\/rails on travis-ci\.com/,
    );
    const hidden = await h.command('build rkh/secret-project#1', { userId: 'U0VISITOR' });
    assert.match(
      shownText(await h.answer(hidden.responseUrl)),
      /could not find build #1 of rkh\/secret-project on travis-ci\.com, or your travis-ci\.com account \(visitor\) cannot see it/,
    );
  });

  it('answers a reference that is not a build with what to write', async () => {
    const { responseUrl } = await h.command('build rails/rails');
    assert.match(shownText(await h.answer(responseUrl)), /is a repository, not a build/);
    const job = await h.command('build rails/rails#6180.1');
    assert.match(shownText(await h.answer(job.responseUrl)), /is a job number, not a build number/);
  });
});
