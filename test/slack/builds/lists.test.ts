import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { type Harness, startLinkedHarness } from '../../helpers/app-harness.js';
import { elementOf, hasElement, shownText } from '../../helpers/slack-messages.js';

describe('/ci status and /ci builds', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness();
    h.ci.state.addRepo({ slug: 'octo/app', id: 7001 });
    h.ci.state.grant('rkh', 7001, 'admin');
    for (let n = 1; n <= 30; n++) {
      h.ci.state.addBuild(7001, {
        number: n,
        state: n === 30 ? 'started' : 'passed',
        branch: n % 2 === 0 ? 'feature' : 'main',
        eventType: n > 26 ? 'pull_request' : n === 5 ? 'cron' : 'push',
        pullRequestNumber: n,
        pullRequestTitle: `PR ${n}`,
        message: `Commit ${n}\n\nDetails`,
        authorName: `Author ${n}`,
        duration: 60 * n,
      });
    }
  });
  afterEach(() => assert.deepEqual(h.slack.rejected(), []));
  after(() => h.close());

  it('status shows the last build compactly, with a button that shows the build', async () => {
    const { ack, responseUrl } = await h.command('status rails/rails');
    assert.equal(ack.status, 200);
    const answer = await h.answer(responseUrl);
    assert.equal(answer.response_type, 'ephemeral');
    assert.match(shownText(answer), /rails\/rails>: build <[^|]+\|#6180> \*failed\*/);
    const show = elementOf(answer, 'build.show');
    const click = await h.click({ actionId: show.action_id, value: show.value, message: { ts: '1.000001' } });
    const card = await h.answer(click.responseUrl);
    assert.match(shownText(card), /rails\/rails #6180/);
    assert.match(shownText(card), /12 jobs: 7 failed, 5 passed/);
  });

  it('lists builds newest first with event, subject, author and duration, and pages with Older builds', async () => {
    const { responseUrl } = await h.command('builds octo/app');
    const answer = await h.answer(responseUrl);
    const text = shownText(answer);
    assert.match(
      text,
      /\|#30> \*running\* · <https:\/\/github\.com\/octo\/app\/pull\/30\|pull request #30> “PR 30” into `feature`/,
    );
    assert.match(text, /\|#26> \*passed\* · <[^|]+\|feature> · push\n_Commit 26_ · Author 26 · 26m/);
    assert.equal([...text.matchAll(/\|#\d+> \*/g)].length, 20);
    const older = elementOf(answer, 'builds.older');
    const click = await h.click({
      actionId: older.action_id,
      value: older.value,
      message: { ts: '1.000002' },
    });
    const next = await h.answer(click.responseUrl);
    assert.equal(next.replace_original, true);
    const numbers = [...shownText(next).matchAll(/\|#(\d+)> \*/g)].map((m) => Number(m[1]));
    assert.deepEqual(numbers, [10, 9, 8, 7, 6, 5, 4, 3, 2, 1]);
    assert.match(shownText(next), /\|#5> \*passed\* · <[^|]+\|main> · cron/);
    assert.equal(hasElement(next, 'builds.older'), false);
    const paged = h.ci.requests.findLast((r) => r.path === '/repos/octo/app/builds');
    assert.equal(paged?.query.get('after_number'), '11');
  });

  it('filters by branch (keeping the filter when paging) and by event type', async () => {
    const { responseUrl } = await h.command('history octo/app --branch feature');
    const answer = await h.answer(responseUrl);
    const numbers = [...shownText(answer).matchAll(/\|#(\d+)> \*/g)].map((m) => Number(m[1]));
    assert.deepEqual(numbers, [30, 28, 26, 24, 22, 20, 18, 16, 14, 12, 10, 8, 6, 4, 2]);
    assert.match(shownText(answer), /\(on `feature`\)/);

    const value = JSON.stringify({ d: 'com', repo: 'octo/app', after: '20', branch: 'feature' });
    const click = await h.click({ actionId: 'builds.older', value, message: { ts: '1.000003' } });
    const older = await h.answer(click.responseUrl);
    assert.deepEqual(
      [...shownText(older).matchAll(/\|#(\d+)> \*/g)].map((m) => Number(m[1])),
      [18, 16, 14, 12, 10, 8, 6, 4, 2],
    );
    assert.match(shownText(older), /\(on `feature`\) before #20/);

    const prs = await h.command('builds octo/app --pr');
    const prAnswer = await h.answer(prs.responseUrl);
    assert.deepEqual(
      [...shownText(prAnswer).matchAll(/\|#(\d+)> \*/g)].map((m) => Number(m[1])),
      [30, 29, 28, 27],
    );
    assert.equal(
      h.ci.requests.findLast((r) => r.path.endsWith('/builds'))?.query.get('event_type'),
      'pull_request',
    );
  });

  it('asks an unlinked user to link, and sends nothing to the CI service', async () => {
    const before = h.ci.requests.length;
    const { responseUrl } = await h.command('builds rails/rails', { userId: 'U0NOBODY' });
    const answer = await h.answer(responseUrl);
    assert.match(shownText(answer), /not linked your travis-ci\.com account/);
    assert.ok(hasElement(answer, 'account.link'));
    assert.equal(h.ci.requests.length, before);
  });

  it('says plainly when a repository is not there or not visible', async () => {
    const missing = await h.command('status octo/nothing');
    assert.match(
      shownText(await h.answer(missing.responseUrl)),
      /I could not find octo\/nothing on travis-ci\.com, or your travis-ci\.com account \(rkh\) cannot see it\./,
    );
    const hiddenStatus = await h.command('status rkh/secret-project', { userId: 'U0VISITOR' });
    assert.match(shownText(await h.answer(hiddenStatus.responseUrl)), /\(visitor\) cannot see it/);
    const hidden = await h.command('builds rkh/secret-project', { userId: 'U0VISITOR' });
    assert.match(
      shownText(await h.answer(hidden.responseUrl)),
      /could not find rkh\/secret-project on travis-ci\.com, or your travis-ci\.com account \(visitor\) cannot see it/,
    );
  });

  it('answers malformed arguments with the usage line', async () => {
    const both = await h.command('builds octo/app --pr --push');
    assert.match(shownText(await h.answer(both.responseUrl)), /\/ci builds/);
    const bad = await h.command('status not/a/repo');
    assert.match(shownText(await h.answer(bad.responseUrl)), /is not a repository/);
    const none = await h.command('builds');
    assert.match(shownText(await h.answer(none.responseUrl)), /repository/i);
  });

  it('escapes commit messages and branch names from the CI service', async () => {
    h.ci.state.addRepo({ slug: 'octo/evil', id: 7002 });
    h.ci.state.addBuild(7002, {
      state: 'passed',
      branch: '<@U0ALL>',
      message: 'Hello <!channel> ```',
      authorName: '<!here>',
      compareUrl: 'javascript:alert(1)',
    });
    const { responseUrl } = await h.command('builds octo/evil');
    const text = shownText(await h.answer(responseUrl));
    assert.doesNotMatch(text, /<!channel>|<@U0ALL>|<!here>|```|javascript:/);
    assert.match(text, /Hello &lt;!channel&gt;/);
  });
});
