import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { assertAckedAtOnce, type Harness, startLinkedHarness } from '../../helpers/app-harness.js';
import { elementOf, hasElement, shownText } from '../../helpers/slack-messages.js';

describe('restart and cancel', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness();
  });
  afterEach(() => assert.deepEqual(h.slack.rejected(), []));
  after(() => h.close());

  const buildUrl = (id: number) => `https://app.travis-ci.com/github/rails/rails/builds/${id}`;
  const responsesTo = (url: string) => h.slack.responses.filter((r) => r.url === url);

  it('restarts a build and announces it in the channel, with no private note besides', async () => {
    const build = h.ci.state.addBuild(891, { state: 'failed', jobs: 2 });
    const { ack, responseUrl } = await h.command(`restart rails/rails#${build.number}`);
    assertAckedAtOnce(ack);
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'in_channel');
    assert.equal(
      answer.text,
      `<@U0USER> restarted build <${buildUrl(build.id)}|#${build.number}> of rails/rails`,
    );
    assert.equal(h.ci.state.getBuild(build.id)?.state, 'created');
    const restart = h.ci.requests.find((r) => r.path === `/builds/${build.id}/restart`);
    assert.equal(restart?.headers.authorization, 'token token-rkh');
    // A later round trip has finished: had a private note been sent, it would be here by now.
    await h.answer((await h.command('help')).responseUrl);
    assert.equal(responsesTo(responseUrl).length, 1);
  });

  it('with --quiet tells only the person who asked', async () => {
    const build = h.ci.state.addBuild(891, { state: 'started', jobs: 1 });
    const { responseUrl } = await h.command(`cancel ${build.id} --quiet`);
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    assert.equal(answer.text, `Canceled build <${buildUrl(build.id)}|#${build.number}> of rails/rails.`);
    assert.equal(h.ci.state.getBuild(build.id)?.state, 'canceled');
  });

  it('restarts and cancels single jobs', async () => {
    const build = h.ci.state.addBuild(891, { state: 'started', jobs: 2 });
    const cancel = await h.command(`cancel rails/rails#${build.number}.2`);
    const jobId = build.jobIds[1] ?? 0;
    assert.equal(
      (await h.answer(cancel.responseUrl)).text,
      `<@U0USER> canceled job <https://app.travis-ci.com/github/rails/rails/jobs/${jobId}|#${build.number}.2> of rails/rails`,
    );
    assert.equal(h.ci.state.getJob(jobId)?.state, 'canceled');
    const restart = await h.command(`restart rails/rails#${build.number}.2`);
    assert.match(
      String((await h.answer(restart.responseUrl)).text),
      /restarted job <[^|]+\|#\d+\.2> of rails\/rails$/,
    );
  });

  it('says a finished build has nothing to cancel, and a running one cannot be restarted yet', async () => {
    const finished = h.ci.state.addBuild(891, { state: 'passed' });
    const cancel = await h.command(`cancel rails/rails#${finished.number}`);
    assert.match(
      shownText(await h.answer(cancel.responseUrl)),
      new RegExp(`Build #${finished.number} of rails/rails already finished; nothing to cancel\\.`),
    );
    const running = h.ci.state.addBuild(891, { state: 'started' });
    const restart = await h.command(`restart rails/rails#${running.number}`);
    const text = shownText(await h.answer(restart.responseUrl));
    assert.match(text, new RegExp(`Build #${running.number} of rails/rails is still running`));
    assert.equal(h.ci.state.getBuild(running.id)?.state, 'started');
  });

  it('says plainly that an account without push access cannot restart there', async () => {
    const build = h.ci.state.addBuild(891, { state: 'failed' });
    const { responseUrl } = await h.command(`restart rails/rails#${build.number}`, { userId: 'U0VISITOR' });
    assert.match(
      shownText(await h.answer(responseUrl)),
      new RegExp(
        `Your travis-ci\\.com account \\(visitor\\) is not allowed to restart build #${build.number} of rails/rails\\.`,
      ),
    );
    assert.equal(h.ci.state.getBuild(build.id)?.state, 'failed');
  });

  it('asks an unlinked user to link, without any CI request', async () => {
    const before = h.ci.requests.length;
    const { responseUrl } = await h.command('restart rails/rails#6180', { userId: 'U0NOBODY' });
    assert.ok(hasElement(await h.answer(responseUrl), 'account.link'));
    assert.equal(h.ci.requests.length, before);
  });

  it('answers a missing build and malformed targets', async () => {
    const missing = await h.command('cancel rails/rails#4242424');
    assert.match(
      shownText(await h.answer(missing.responseUrl)),
      /could not find build #4242424 of rails\/rails/,
    );
    const repo = await h.command('restart rails/rails');
    assert.match(shownText(await h.answer(repo.responseUrl)), /is a repository, not a build/);
    const nothing = await h.command('cancel');
    assert.match(shownText(await h.answer(nothing.responseUrl)), /\/ci cancel/);
  });

  it('cancels from the card’s button (behind a confirm) and announces it', async () => {
    const build = h.ci.state.addBuild(891, { state: 'started', jobs: 2 });
    const card = await h.answer((await h.command(`build ${build.id}`)).responseUrl);
    const cancel = elementOf(card, 'build.cancel');
    assert.ok(cancel.confirm);
    const click = await h.click({
      actionId: cancel.action_id,
      value: cancel.value,
      message: { ts: '3.000001' },
    });
    assertAckedAtOnce(click.ack);
    const answer = await h.answer(click.responseUrl);
    assert.equal(answer.response_type, 'in_channel');
    assert.equal(
      answer.text,
      `<@U0USER> canceled build <${buildUrl(build.id)}|#${build.number}> of rails/rails`,
    );
  });

  it('acts as whoever clicks: someone else’s click uses their own token and rights', async () => {
    const build = h.ci.state.addBuild(891, { state: 'failed', jobs: 1 });
    const card = await h.answer((await h.command(`build ${build.id}`)).responseUrl);
    const restart = elementOf(card, 'build.restart');
    const click = await h.click({
      actionId: restart.action_id,
      value: restart.value,
      userId: 'U0VISITOR',
      message: { ts: '3.000002' },
    });
    assert.match(
      shownText(await h.answer(click.responseUrl)),
      new RegExp(`\\(visitor\\) is not allowed to restart build #${build.number} of rails/rails`),
    );
    const sent = h.ci.requests.filter((r) => r.path === `/builds/${build.id}/restart`);
    assert.deepEqual(
      sent.map((r) => r.headers.authorization),
      ['token token-visitor'],
    );
    assert.equal(h.ci.state.getBuild(build.id)?.state, 'failed');

    const before = h.ci.requests.length;
    const stranger = await h.click({
      actionId: restart.action_id,
      value: restart.value,
      userId: 'U0STRANGER',
      message: { ts: '3.000002' },
    });
    assert.ok(hasElement(await h.answer(stranger.responseUrl), 'account.link'));
    assert.equal(h.ci.requests.length, before, 'nothing sent for someone not linked');
  });

  it('restarts and cancels one job from the card’s menus', async () => {
    const build = h.ci.state.addBuild(891, {
      state: 'started',
      jobs: [{ state: 'failed' }, { state: 'started' }],
    });
    const card = await h.answer((await h.command(`build ${build.id}`)).responseUrl);
    const restartMenu = elementOf(card, 'job.restart');
    const cancelMenu = elementOf(card, 'job.cancel');
    assert.ok(cancelMenu.confirm, 'cancelling a job asks first');
    const [failedJob, runningJob] = build.jobIds;
    const restartOption = restartMenu.options?.find((o) => JSON.parse(o.value).id === failedJob);
    assert.ok(restartOption);
    const restart = await h.click({
      actionId: restartMenu.action_id,
      actionType: 'static_select',
      selectedOption: { value: restartOption.value },
      message: { ts: '3.000003' },
    });
    assert.match(
      String((await h.answer(restart.responseUrl)).text),
      /restarted job <[^|]+\|#\d+\.1> of rails\/rails/,
    );
    assert.equal(h.ci.state.getJob(failedJob ?? 0)?.state, 'created');

    const cancelOption = cancelMenu.options?.find((o) => JSON.parse(o.value).id === runningJob);
    assert.ok(cancelOption);
    const cancel = await h.click({
      actionId: cancelMenu.action_id,
      actionType: 'static_select',
      selectedOption: { value: cancelOption.value },
      message: { ts: '3.000003' },
    });
    assert.match(
      String((await h.answer(cancel.responseUrl)).text),
      /canceled job <[^|]+\|#\d+\.2> of rails\/rails/,
    );
    assert.equal(h.ci.state.getJob(runningJob ?? 0)?.state, 'canceled');
  });

  it('tells the clicker a button value it cannot read is out of date', async () => {
    const click = await h.click({ actionId: 'build.restart:1', value: '{"d":"com","id":"<!channel>"}' });
    assert.match(shownText(await h.answer(click.responseUrl)), /out of date/);
  });
});
