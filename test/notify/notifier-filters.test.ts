import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import type { SubscriptionFilters } from '../../src/notify/filter-types.js';
import type { AddBuildInput } from '../fakes/ci/state.js';
import { type NotifyWorld, parents, replies, shown, startNotifyWorld, TEAM, USER } from './notifier-world.js';

/** Each subscription filter, end to end: fake CI build → notifier → fake Slack. */
describe('the notifier applies each filter', () => {
  let w: NotifyWorld;
  let channels = 0;
  const channel = () => `CFILT${++channels}`;

  before(async () => {
    w = await startNotifyWorld();
  });
  after(() => w.close());

  /** A channel subscribed with `filters` to a repository of its own, and a way to run builds in it. */
  async function setup(filters: SubscriptionFilters) {
    const repo = w.repo('filters');
    const channelId = channel();
    await w.subscribe(channelId, repo, filters);
    return {
      repo,
      channelId,
      /** Adds a finished (or any) build and hands it to the notifier; returns its id. */
      async run(input: AddBuildInput): Promise<number> {
        const id = w.addBuild(repo, { state: 'passed', ...input });
        await w.notifier.handle(await w.update(id));
        return id;
      },
      posted: () => parents(w.slack, channelId),
    };
  }

  it('branches: announces builds of matching branches only', async () => {
    const s = await setup({ branches: ['main', 'release/*'] });
    await s.run({ branch: 'feature/x' });
    assert.equal(s.posted().length, 0);
    await s.run({ branch: 'release/1.2' });
    await s.run({ branch: 'main' });
    assert.equal(s.posted().length, 2);
  });

  it('events: announces the chosen events only', async () => {
    const s = await setup({ events: ['push'] });
    await s.run({ eventType: 'pull_request', pullRequestNumber: 7 });
    await s.run({ eventType: 'cron' });
    assert.equal(s.posted().length, 0);
    await s.run({ eventType: 'push' });
    assert.equal(s.posted().length, 1);
  });

  it('shows a pull request build with a link to the pull request', async () => {
    const s = await setup({});
    await s.run({ eventType: 'pull_request', pullRequestNumber: 42, pullRequestTitle: 'Add a thing' });
    const [message] = s.posted();
    assert.ok(message);
    assert.match(shown(message), /<https:\/\/github\.com\/rkh\/filters-\d+\/pull\/42\|pull request #42>/);
  });

  it('only:failures: announces failed and errored builds only', async () => {
    const s = await setup({ only: 'failures' });
    await s.run({ state: 'passed' });
    await s.run({ state: 'canceled' });
    assert.equal(s.posted().length, 0);
    await s.run({ state: 'failed' });
    await s.run({ state: 'errored' });
    const posted = s.posted().filter((m) => !m.text.startsWith('*Failed'));
    assert.equal(posted.length, 2);
  });

  it('only:changes: broken, still failing and fixed, compared with the branch’s previous build', async () => {
    const s = await setup({ only: 'changes' });
    const builds = () => s.posted().filter((m) => !m.text.startsWith('*Failed'));
    await s.run({ state: 'passed' });
    assert.equal(builds().length, 0, 'a pass with nothing to compare is no change');
    await s.run({ state: 'failed' });
    assert.match(builds().at(-1)?.text ?? '', /failed.*\(broken\)/);
    await s.run({ state: 'canceled' });
    await s.run({ state: 'failed' });
    assert.match(
      builds().at(-1)?.text ?? '',
      /\(still failing\)/,
      'a canceled build in between says nothing',
    );
    await s.run({ state: 'failed', branch: 'other' });
    assert.match(builds().at(-1)?.text ?? '', /failed/, 'another branch has its own history');
    const count = builds().length;
    await s.run({ state: 'passed' });
    assert.match(builds().at(-1)?.text ?? '', /passed.*\(fixed\)/);
    await s.run({ state: 'passed' });
    assert.equal(builds().length, count + 1, 'a second pass is no change');
  });

  it('only:changes: a build seen out of order compares with the build numbered before it', async () => {
    const s = await setup({ only: 'changes' });
    const first = w.addBuild(s.repo, { state: 'failed' });
    const second = w.addBuild(s.repo, { state: 'failed' });
    // The second arrives first: with nothing before it known, it counts as broken (and says nothing).
    await w.notifier.handle(await w.update(second));
    await w.notifier.handle(await w.update(first));
    await w.notifier.handle(await w.update(second));
    const texts = s
      .posted()
      .filter((m) => !m.text.startsWith('*Failed'))
      .map((m) => m.text);
    assert.equal(texts.length, 2);
    assert.ok(
      texts.some((t) => /#1 failed: Update README$/.test(t)),
      texts.join('\n'),
    );
    assert.ok(
      texts.some((t) => /#2 failed: .*\(still failing\)$/.test(t)),
      texts.join('\n'),
    );
  });

  it('exclude-authors: skips builds of excluded authors (name or e-mail, any case)', async () => {
    const s = await setup({ excludeAuthors: ['dependabot*', '*@bots.example.com'] });
    await s.run({ authorName: 'Dependabot[bot]' });
    await s.run({ authorName: 'Renovate', authorEmail: 'renovate@BOTS.example.com' });
    assert.equal(s.posted().length, 0);
    await s.run({ authorName: 'Ada Lovelace' });
    assert.equal(s.posted().length, 1);
  });

  it('started:on: the message appears when the build is created; without it, when it ends', async () => {
    const on = await setup({ started: true });
    const off = await setup({});
    const id = w.addBuild(on.repo, { state: 'created' });
    await w.notifier.handle(await w.update(id));
    assert.equal(on.posted().length, 1);
    const quiet = w.addBuild(off.repo, { state: 'created' });
    await w.notifier.handle(await w.update(quiet));
    w.ci.state.updateBuild(quiet, { state: 'started' });
    await w.notifier.handle(await w.update(quiet));
    assert.equal(off.posted().length, 0);
    w.ci.state.updateBuild(quiet, { state: 'passed' });
    await w.notifier.handle(await w.update(quiet));
    assert.equal(off.posted().length, 1);
    assert.match(off.posted()[0]?.text ?? '', /passed/);
  });

  it('threads:off: the failure logs go to the channel, not to a thread', async () => {
    const s = await setup({ threads: false });
    const id = w.addBuild(s.repo, { state: 'failed', jobs: [{ state: 'failed', log: 'boom\n' }] });
    await w.notifier.handle(await w.update(id));
    const all = w.slack.messages(s.channelId);
    assert.equal(all.length, 2);
    assert.ok(all.every((m) => m.thread_ts === undefined));
    assert.match(all[1]?.text ?? '', /Failed job of .*\n.*\n```\nboom\n```/);
  });

  it('skips paused subscriptions', async () => {
    const s = await setup({});
    const subs = await w.services.subscriptions.forChannel(TEAM, s.channelId);
    assert.ok(subs[0]);
    assert.equal(await w.services.subscriptions.pause(subs[0].id, 'token_rejected'), true);
    await s.run({});
    assert.equal(s.posted().length, 0);
  });

  it('posts one message in a channel subscribed to a repository and to its owner', async () => {
    const s = await setup({ only: 'failures' });
    await w.services.subscriptions.upsert({
      teamId: TEAM,
      channelId: s.channelId,
      deployment: 'com',
      target: { kind: 'owner', owner: 'rkh', repos: [s.repo] },
      filters: { threads: false },
      createdBy: USER,
    });
    await s.run({ state: 'passed' });
    assert.equal(s.posted().length, 1, 'the owner subscription posts what the repository one would not');
    await s.run({ state: 'failed', jobs: [{ state: 'failed', log: 'x\n' }] });
    const posted = s.posted();
    assert.equal(posted.length, 2, 'one message for the failed build, its log in the thread');
    const failed = posted[1];
    assert.ok(failed);
    assert.equal(replies(w.slack, s.channelId, failed.ts).length, 1);
    assert.deepEqual(w.slack.rejected(), []);
  });
});
