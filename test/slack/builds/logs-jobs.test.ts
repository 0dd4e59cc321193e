import assert from 'node:assert/strict';
import { after, afterEach, before, describe, it } from 'node:test';
import { assertAckedAtOnce, type Harness, startLinkedHarness } from '../../helpers/app-harness.js';
import { hasElement, shownText } from '../../helpers/slack-messages.js';

describe('/ci logs and /ci jobs', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness();
  });
  afterEach(() => assert.deepEqual(h.slack.rejected(), []));
  after(() => h.close());

  const logText = async (command: string, options: { userId?: string; answerWithinMs?: number } = {}) => {
    const { ack, responseUrl } = await h.command(command, options.userId ? { userId: options.userId } : {});
    assertAckedAtOnce(ack);
    return String((await h.answer(responseUrl, options.answerWithinMs)).text);
  };

  it('shows the last lines of a job log, cleaned, with a link to the whole log', async () => {
    const log = 'travis_fold:start:x\r\x1b[0K$ setup\n\x1b[31mfirst\x1b[0m\nsecond 10%\rsecond done\nthird\n';
    const build = h.ci.state.addBuild(891, { state: 'failed', jobs: [{ log }] });
    const text = await logText(`logs rails/rails#${build.number}.1 --lines 2`);
    const jobId = build.jobIds[0] ?? 0;
    assert.equal(
      text,
      `*Log of job <https://app.travis-ci.com/github/rails/rails/jobs/${jobId}|#${build.number}.1> of rails/rails* · :x: failed · last 2 of 4 lines · <https://app.travis-ci.com/github/rails/rails/jobs/${jobId}|Full log on travis-ci.com>\n\`\`\`\nsecond done\nthird\n\`\`\``,
    );
  });

  it('reads an archived log through the redirect', async () => {
    const build = h.ci.state.addBuild(891, { state: 'passed', jobs: [{ log: 'archived line\n' }] });
    const jobId = build.jobIds[0] ?? 0;
    h.ci.state.archiveLog(jobId);
    assert.match(await logText(`log ${jobId}`), /```\narchived line\n```/);
    assert.ok(
      h.ci.archive.requests.some((r) => r.path === `/jobs/${jobId}/log.txt` && !r.headers.authorization),
    );
  });

  it('says when a log is empty, and when there is no log at all', async () => {
    const build = h.ci.state.addBuild(891, { state: 'started', jobs: [{ log: '' }] });
    assert.match(
      await logText(`logs ${build.jobIds[0]}`),
      /^The log of job <[^|]+\|#\d+\.1> of rails\/rails is empty so far/,
    );
    const none = await h.command('logs rails/rails#6180.3');
    assert.match(
      shownText(await h.answer(none.responseUrl)),
      /I could not find the log of job #6180\.3 of rails\/rails on travis-ci\.com/,
    );
  });

  it('streams a 20 MB log and shows its end within Slack’s limits', async () => {
    const big = `${Array.from({ length: 200_000 }, (_, i) => `step ${i} ${'z'.repeat(90)}`).join('\n')}\nThe end\n`;
    const build = h.ci.state.addBuild(891, { state: 'failed', jobs: [{ log: big }] });
    // Reading 20 MB takes a while on a busy test machine; the response_url stays valid for 30 min.
    const text = await logText(`logs ${build.jobIds[0]} --lines 500`, { answerWithinMs: 20_000 });
    assert.ok(text.length < 9_000, `${text.length} characters`);
    assert.match(text, /last 500 of 200,001 lines/);
    assert.match(text, /earlier lines not shown/);
    assert.match(text, /step 199999 z+\nThe end\n```$/);
  });

  it('keeps a stray ``` and mentions in a log harmless', async () => {
    const build = h.ci.state.addBuild(891, {
      state: 'failed',
      jobs: [{ log: 'before\n```\n<!channel> @here <@U0ALL>\nafter\n' }],
    });
    const text = await logText(`logs ${build.jobIds[0]}`);
    const body = text.slice(text.indexOf('\n') + 1);
    assert.equal(body.split('```').length, 3, 'only the opening and closing fences');
    assert.doesNotMatch(body, /<!channel>|<@U0ALL>|@here/);
    assert.match(body, /&lt;!channel&gt;/);
  });

  it('has nothing to follow live in a job that finished: it says so and shows the log', async () => {
    const posts = h.slack.callsTo('chat.postMessage').length;
    assert.match(await logText('logs rails/rails#6180.1 --follow'), /has already finished \(failed\)/);
    assert.equal(h.slack.callsTo('chat.postMessage').length, posts, 'nothing posted in the channel');
  });

  it('answers a missing job, a hidden one, an unlinked user and malformed arguments', async () => {
    assert.match(await logText('logs rails/rails#6180.99'), /could not find job #6180\.99 of rails\/rails/);
    assert.match(
      shownText(
        await h.answer((await h.command('logs rkh/secret-project#1.1', { userId: 'U0VISITOR' })).responseUrl),
      ),
      /\(visitor\) cannot see it/,
    );
    const unlinked = await h.answer(
      (await h.command('logs rails/rails#6180.1', { userId: 'U0NOBODY' })).responseUrl,
    );
    assert.ok(hasElement(unlinked, 'account.link'));
    assert.match(
      await logText('logs rails/rails#6180'),
      /is a build number; a job number has the job after a dot/,
    );
    assert.match(await logText('logs rails/rails#6180.1 --lines 0'), /\/ci logs/);
  });

  it('lists jobs by state and by queue', async () => {
    const build = h.ci.state.addBuild(891, {
      state: 'started',
      message: 'Running now <!channel>',
      jobs: [
        { state: 'started', queue: 'builds.gpu' },
        { state: 'queued', queue: 'builds.gpu' },
      ],
    });
    const started = shownText(await h.answer((await h.command('jobs --state started')).responseUrl));
    assert.match(started, /\*Jobs in state `started`\* on travis-ci\.com/);
    assert.match(
      started,
      new RegExp(
        `rails/rails #${build.number}\\.1> running · \`builds\\.gpu\` · \`master\` · _Running now &lt;!channel&gt;_`,
      ),
    );
    assert.doesNotMatch(started, new RegExp(`#${build.number}\\.2>`));
    const queue = shownText(await h.answer((await h.command('jobs --queue builds.gpu')).responseUrl));
    assert.match(queue, /\*Jobs on queue `builds\.gpu`\*/);
    assert.match(queue, /2 jobs/);
  });

  it('lists only the jobs the person can see', async () => {
    const mine = shownText(await h.answer((await h.command('jobs --state passed')).responseUrl));
    assert.match(mine, /rkh\/secret-project #1\.1>/);
    const theirs = shownText(
      await h.answer((await h.command('jobs --state passed', { userId: 'U0VISITOR' })).responseUrl),
    );
    assert.doesNotMatch(theirs, /secret-project/);
    assert.match(theirs, /rails\/rails #6180\.2>/);
  });

  it('cuts a long job list to fit and notes the service’s limit', async () => {
    h.ci.state.addRepo({ slug: 'octo/wide', id: 7101 });
    h.ci.state.addBuild(7101, {
      state: 'started',
      jobs: Array.from({ length: 260 }, () => ({ queue: 'builds.wide' })),
    });
    const text = shownText(await h.answer((await h.command('jobs --queue builds.wide')).responseUrl));
    const shown = [...text.matchAll(/octo\/wide #\d+\.\d+>/g)].length;
    assert.ok(shown > 10 && shown < 250, `${shown} shown`);
    assert.match(
      text,
      new RegExp(`showing ${shown} of 250 jobs \\(cut to fit Slack\\); travis-ci\\.com lists at most 250`),
    );
  });

  it('answers malformed job filters with the usage line', async () => {
    assert.match(shownText(await h.answer((await h.command('jobs')).responseUrl)), /\/ci jobs/);
    assert.match(
      shownText(await h.answer((await h.command('jobs --state sleeping')).responseUrl)),
      /sleeping/,
    );
  });
});
