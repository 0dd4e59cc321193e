import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  finalTailMessage,
  followParentMessage,
  liveTailMessage,
  stoppedTailMessage,
} from '../../../src/slack/views/follow.js';
import { jobCardBlocks } from '../../../src/slack/views/job-card.js';
import { actionIds, assertFitsMessage } from '../../helpers/slack-messages.js';
import { manyJobs, nth, RAILS_BUILD_NOW, railsBuild, railsBuildCard, SITE } from '../../helpers/view-data.js';

const VIEW = { site: SITE, slug: 'rails/rails', job: { id: 4125096, number: '6180.1' } };
const JOB_LINK = '<https://app.travis-ci.com/github/rails/rails/jobs/4125096|#6180.1>';
const FULL_LOG = '<https://app.travis-ci.com/github/rails/rails/jobs/4125096|Full log on travis-ci.com>';

describe('follow views', () => {
  it('names who follows which job in the parent line', () => {
    assert.deepEqual(followParentMessage(VIEW, 'U123'), {
      text: `<@U123> is following job ${JOB_LINK} of rails/rails.`,
    });
  });

  it('shows the live tail in a code block that outside text cannot break', () => {
    const { text } = liveTailMessage(VIEW, ['ok', '<!channel> ``` @here'], 'started');
    assert.equal(
      text,
      `:arrows_counterclockwise: *Live log* of job ${JOB_LINK} of rails/rails · ${FULL_LOG}\n\`\`\`\nok\n&lt;!channel&gt; \`\u200b\`\u200b\` @\u2060here\n\`\`\``,
    );
    assert.match(
      liveTailMessage(VIEW, [], 'queued').text,
      /^:clock3: \*Live log\* · queued of .*\n_No output yet\._$/,
    );
  });

  it('keeps a tail of very long lines within the code block budget, its end first', () => {
    const lines = Array.from({ length: 40 }, (_, i) => `${i} ${'x'.repeat(4_000)}`);
    const { text } = liveTailMessage(VIEW, lines, 'started');
    assert.ok(text.length < 9_000, `${text.length} characters`);
    assert.match(text, /earlier lines not shown/);
    assert.match(text, /39 x+\n```$/);
  });

  it('ends with the state, the duration and the link, or without a duration it cannot know', () => {
    const timing = { state: 'failed', startedAt: '2030-01-01T10:00:00Z', finishedAt: '2030-01-01T11:02:03Z' };
    assert.equal(
      finalTailMessage(VIEW, ['boom'], timing).text,
      `:x: *Job ${JOB_LINK} of rails/rails failed* in 1h 2m 3s · ${FULL_LOG}\n\`\`\`\nboom\n\`\`\``,
    );
    assert.match(
      finalTailMessage(VIEW, [], { state: 'canceled', startedAt: null }).text,
      /^:no_entry_sign: \*Job .* canceled\* · <[^>]+>\n_No output yet\._$/,
    );
  });

  it('says why a follow stopped early', () => {
    assert.equal(
      stoppedTailMessage(VIEW, { kind: 'unlinked', userId: 'U9' }).text,
      `:double_vertical_bar: *Stopped following job ${JOB_LINK} of rails/rails*: <@U9>, whose account read this log, is no longer linked. ${FULL_LOG}`,
    );
    assert.match(
      stoppedTailMessage(VIEW, { kind: 'no_access', userId: 'U9' }).text,
      /: the account of <@U9> can no longer read this job\. /,
    );
  });
});

describe('Follow buttons', () => {
  it('sit beside the Log button of each running job on the build card, not of finished ones', () => {
    const { build, commit, jobs } = railsBuild();
    jobs[2] = { ...nth(jobs, 2), state: 'started', finished_at: null };
    jobs[3] = { ...nth(jobs, 3), state: 'queued', started_at: null, finished_at: null };
    const blocks = railsBuildCard({ build, commit, jobs });
    assertFitsMessage(blocks);
    const ids = actionIds(blocks);
    assert.deepEqual(
      ids.filter((id) => id.startsWith('job.follow:')),
      [`job.follow:${nth(jobs, 2).id}`, `job.follow:${nth(jobs, 3).id}`],
    );
    assert.equal(ids.filter((id) => id.startsWith('job.log:')).length, 12);
    const row = blocks.find(
      (b) =>
        b.type === 'actions' &&
        b.elements.some((e) => 'action_id' in e && e.action_id === `job.follow:${nth(jobs, 2).id}`),
    );
    assert.ok(row && row.type === 'actions');
    assert.deepEqual(
      row.elements.map((e) => ('action_id' in e ? e.action_id : '')),
      [`job.log:${nth(jobs, 2).id}`, `job.follow:${nth(jobs, 2).id}`],
    );
  });

  it('keep a build of 300 running jobs inside one message', () => {
    const { build, commit } = railsBuild();
    const jobs = manyJobs(build, 300, () => 'started');
    const blocks = railsBuildCard({ build, commit, jobs });
    assertFitsMessage(blocks);
    const follows = actionIds(blocks).filter((id) => id.startsWith('job.follow:'));
    assert.ok(follows.length >= 10, `${follows.length} jobs with a Follow button`);
    assert.match(JSON.stringify(blocks), new RegExp(`Showing ${follows.length} of 300 jobs`));
  });

  it('appear on the job card while the job runs', () => {
    const { commit, jobs } = railsBuild();
    const running = { ...nth(jobs, 0), state: 'started', finished_at: null };
    assert.ok(
      actionIds(
        jobCardBlocks({ site: SITE, slug: 'rails/rails', job: running, commit, now: RAILS_BUILD_NOW }),
      ).includes(`job.follow:${running.id}`),
    );
    const done = nth(jobs, 0);
    assert.equal(
      actionIds(
        jobCardBlocks({ site: SITE, slug: 'rails/rails', job: done, commit, now: RAILS_BUILD_NOW }),
      ).some((id) => id.startsWith('job.follow')),
      false,
    );
  });
});
