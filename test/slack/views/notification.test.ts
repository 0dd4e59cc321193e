import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Job } from '../../../src/ci/schemas.js';
import type { JobLogTail } from '../../../src/ops/logs.js';
import {
  FAILURE_REPLY_CHARS,
  failureLogsMessage,
  jobSummary,
  notificationMessage,
  notificationText,
} from '../../../src/slack/views/notification.js';
import { actionIds, assertFitsMessage, mrkdwnTexts } from '../../helpers/slack-messages.js';
import { manyJobs, nth, railsBuild, SITE } from '../../helpers/view-data.js';

const tail = (lines: string[], totalLines = lines.length): JobLogTail => ({
  lines,
  totalLines,
  totalBytes: lines.join('\n').length,
  truncated: totalLines > lines.length,
  empty: lines.length === 0,
});

describe('the build notification', () => {
  it('shows the build, its origin, commit, author, duration and a job summary', () => {
    const { build, commit, jobs } = railsBuild();
    const message = notificationMessage({
      site: SITE,
      slug: 'rails/rails',
      build: { ...build, duration: 856 },
      commit,
      jobs,
      change: 'broken',
    });
    assertFitsMessage(message.blocks);
    const text = mrkdwnTexts(message.blocks);
    assert.match(
      text,
      /\*<https:\/\/app\.travis-ci\.com\/github\/rails\/rails\/builds\/4125095\|rails\/rails #6180>\* failed in 14m 16s · _broken_/,
    );
    assert.match(text, /\|master> · push/);
    assert.match(text, /_Associaton -&gt; Association_ · Steve Klabnik/);
    assert.match(text, /12 jobs: 5 passed · 7 failed/);
    assert.match(text, /…and 2 more failed jobs/);
    assert.equal(message.text, 'rails/rails #6180 failed: Associaton -&gt; Association (broken)');
  });

  it('offers Restart for a finished build and Cancel (with a confirm) for a running one, and Details', () => {
    const { build, commit, jobs } = railsBuild();
    const finished = notificationMessage({ site: SITE, slug: 'rails/rails', build, commit, jobs });
    assert.deepEqual(actionIds(finished.blocks), ['build.restart:4125095', 'build.show:4125095']);
    const running = notificationMessage({
      site: SITE,
      slug: 'rails/rails',
      build: { ...build, state: 'started', started_at: '2013-01-13T15:55:17Z', finished_at: null },
      commit,
      jobs: jobs.map((job) => ({ ...job, state: 'started' })),
    });
    assert.deepEqual(actionIds(running.blocks), ['build.cancel:4125095', 'build.show:4125095']);
    assert.match(JSON.stringify(running.blocks), /"confirm"/);
    assert.match(mrkdwnTexts(running.blocks), /running · started <!date\^1358092517\^\{time\}\|15:55 UTC>/);
    assert.match(mrkdwnTexts(running.blocks), /12 jobs: 12 running/);
  });

  it('renders the same build the same way at any time (no “minutes ago”)', () => {
    const { build, commit, jobs } = railsBuild();
    const input = { site: SITE, slug: 'rails/rails', build, commit, jobs };
    assert.deepEqual(notificationMessage(input), notificationMessage(structuredClone(input)));
    assert.doesNotMatch(JSON.stringify(notificationMessage(input)), /ago/);
  });

  it('counts allowed failures apart, and stays small for a 300-job build', () => {
    const { build, commit } = railsBuild();
    const jobs = manyJobs(build, 300, (n) =>
      n % 3 === 0 ? 'failed' : n % 7 === 0 ? 'started' : 'passed',
    ).map((job, i) => ({ ...job, allow_failure: i % 10 === 0 }));
    const message = notificationMessage({ site: SITE, slug: 'rails/rails', build, commit, jobs });
    assertFitsMessage(message.blocks);
    assert.ok(JSON.stringify(message.blocks).length < 6_000);
    assert.match(jobSummary(jobs), /^300 jobs: \d+ passed · \d+ failed · \d+ allowed to fail · \d+ running$/);
  });

  it('escapes commit messages, authors, branches and unknown states', () => {
    const { build, commit, jobs } = railsBuild();
    const message = notificationMessage({
      site: SITE,
      slug: 'rails/rails',
      build,
      commit: { ...commit, message: '<!channel> hi', author_name: '<@U1>', branch: '<!here>' },
      jobs: [{ ...nth(jobs, 0), state: '<!everyone>' }],
    });
    const everything = JSON.stringify(message);
    for (const raw of ['<!channel>', '<@U1>', '<!here>', '<!everyone>'])
      assert.ok(!everything.includes(raw), raw);
    assert.equal(
      notificationText({ slug: 'a/<b>', build, commit: { ...commit, message: '<!channel>' } }),
      'a/&lt;b&gt; #6180 failed: &lt;!channel&gt;',
    );
  });
});

describe('the failure reply', () => {
  const { build, jobs } = railsBuild();
  const failed = jobs.filter((job) => job.state === 'failed');

  it('shows each job’s log tail in a code block, with its state, config and a link to the full log', () => {
    const allowed: Job = { ...nth(failed, 1), allow_failure: true };
    const message = failureLogsMessage({
      site: SITE,
      slug: 'rails/rails',
      build,
      logs: [
        { job: nth(failed, 0), tail: tail(['$ rake', '1 failure'], 1200) },
        { job: allowed, tail: tail([]) },
        { job: nth(failed, 2), problem: 'The log could not be found.' },
      ],
      notShown: failed.slice(3),
    });
    assert.match(message.text, /^\*Failed jobs of <[^|]+\|rails\/rails #6180>\* · logs of 3 of 7\n/);
    assert.match(
      message.text,
      /#6180\.1> failed · rvm 1\.9\.3 · GEM=railties · last 2 of 1,200 lines · <[^|]+\|Full log>\n```\n\$ rake\n1 failure\n```/,
    );
    assert.match(message.text, /_allowed to fail_[^\n]*\n_The log is empty\._/);
    assert.match(message.text, /_The log could not be found\._/);
    assert.match(message.text, /Also failed: (<[^>]+>, ){3}<[^>]+> · <[^|]+\|the whole build>$/);
  });

  it('cuts long logs so the whole reply stays readable, keeping each log’s end', () => {
    const long = Array.from({ length: 5_000 }, (_, i) => `line ${i} ${'x'.repeat(60)}`);
    const message = failureLogsMessage({
      site: SITE,
      slug: 'rails/rails',
      build,
      logs: failed.slice(0, 5).map((job) => ({ job, tail: tail(long.slice(-200), 5_000) })),
      notShown: [],
    });
    assert.ok(message.text.length <= FAILURE_REPLY_CHARS + 200, `${message.text.length} characters`);
    assert.equal(message.text.match(/```/g)?.length, 10, 'five whole code blocks');
    assert.match(message.text, /line 4999 x+\n```/);
    assert.match(message.text, /earlier lines not shown/);
  });

  it('keeps a log from closing its code block or pinging anyone', () => {
    const message = failureLogsMessage({
      site: SITE,
      slug: 'rails/rails',
      build,
      logs: [{ job: nth(failed, 0), tail: tail(['```', '<!channel> done']) }],
      notShown: [],
    });
    assert.doesNotMatch(message.text, /\n```\n<!channel>/);
    assert.match(message.text, /&lt;!channel&gt; done/);
    assert.equal(message.text.match(/```/g)?.length, 2);
  });
});
