import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Build, type Commit, type Job, repositorySchema } from '../../../src/ci/schemas.js';
import type { ControlTarget } from '../../../src/ops/build-control.js';
import type { BuildEntry, BuildPage } from '../../../src/ops/builds.js';
import type { JobList } from '../../../src/ops/jobs.js';
import { ACTIONS, decodeValue } from '../../../src/slack/ids.js';
import {
  buildListMessage,
  controlAnnouncement,
  controlConfirmation,
  statusMessage,
} from '../../../src/slack/views/builds.js';
import { jobListMessage } from '../../../src/slack/views/jobs.js';
import { LOG_CODE_CHARS, logMessage } from '../../../src/slack/views/log.js';
import { actionIds, assertFitsMessage, mrkdwnTexts } from '../../helpers/slack-messages.js';
import { nth, RAILS_BUILD_NOW, railsBuild, SITE } from '../../helpers/view-data.js';

const REPO = repositorySchema.parse({ id: 891, slug: 'rails/rails' });

function entry(n: number, overrides: Partial<Build> = {}, commit: Partial<Commit> = {}): BuildEntry {
  const base = railsBuild();
  return {
    build: { ...base.build, id: 1000 + n, number: String(n), commit_id: 5000 + n, ...overrides },
    commit: { ...base.commit, id: 5000 + n, ...commit },
    jobs: [],
  };
}

function page(entries: BuildEntry[], extra: Partial<BuildPage> = {}): BuildPage {
  return {
    repo: REPO,
    entries,
    filters: {},
    afterNumber: undefined,
    nextAfterNumber: undefined,
    scanLimited: false,
    ...extra,
  };
}

describe('the build list', () => {
  it('shows state, number, branch, event, commit subject, author, duration and finished ago', () => {
    const message = buildListMessage(
      page([
        entry(12, { state: 'passed', duration: 95, finished_at: '2013-01-13T16:55:17Z' }),
        entry(
          11,
          {
            event_type: 'pull_request',
            pull_request: true,
            pull_request_number: '77',
            pull_request_title: 'Add things',
          },
          { message: 'Subject line\n\nbody', author_name: 'Ada' },
        ),
        entry(10, { event_type: 'cron' }),
        entry(9, { event_type: 'api', state: 'started', started_at: '2013-01-13T17:50:17Z' }),
      ]),
      SITE,
      RAILS_BUILD_NOW,
    );
    assertFitsMessage(message.blocks);
    const rows = mrkdwnTexts(message.blocks);
    assert.match(
      rows,
      /:white_check_mark: <https:\/\/app\.travis-ci\.com\/github\/rails\/rails\/builds\/1012\|#12> \*passed\* · <[^|]+\|master> · push\n_Associaton -&gt; Association_ · Steve Klabnik · 1m 35s · finished 1 hour ago/,
    );
    assert.match(
      rows,
      /#11> \*failed\* · <https:\/\/github\.com\/rails\/rails\/pull\/77\|pull request #77> “Add things” into `master`\n_Subject line_ · Ada/,
    );
    assert.match(rows, /#10> \*failed\* · <[^|]+\|master> · cron/);
    assert.match(rows, /#9> \*running\* · <[^|]+\|master> · api\n.* · running for 5m/);
    assert.deepEqual(actionIds(message.blocks), [
      'build.show:1012',
      'build.show:1011',
      'build.show:1010',
      'build.show:1009',
    ]);
  });

  it('pages with an Older builds button that keeps the filters', () => {
    const message = buildListMessage(
      page([entry(40)], { filters: { branch: 'main', event: 'push' }, nextAfterNumber: '40' }),
      SITE,
      RAILS_BUILD_NOW,
    );
    const older = (message.blocks ?? [])
      .flatMap((b) => (b.type === 'actions' ? b.elements : []))
      .find((e) => 'action_id' in e && e.action_id === ACTIONS.olderBuilds.id);
    assert.ok(older && 'value' in older);
    assert.deepEqual(decodeValue(ACTIONS.olderBuilds, older.value), {
      d: 'com',
      repo: 'rails/rails',
      after: '40',
      branch: 'main',
      event: 'push',
    });
    assert.match(mrkdwnTexts(message.blocks), /\(pushes on `main`\)/);
  });

  it('says when nothing matches, and when a branch scan stopped early', () => {
    assert.match(mrkdwnTexts(buildListMessage(page([]), SITE, RAILS_BUILD_NOW).blocks), /No builds yet\./);
    const limited = buildListMessage(
      page([], { filters: { branch: 'rare' }, scanLimited: true, nextAfterNumber: '21' }),
      SITE,
      RAILS_BUILD_NOW,
    );
    assert.match(mrkdwnTexts(limited.blocks), /No builds on `rare` among the 100 builds looked at/);
    assert.ok(actionIds(limited.blocks).includes(ACTIONS.olderBuilds.id));
  });

  it('cuts long rows and still fits with 20 builds of long messages', () => {
    const long = Array.from({ length: 20 }, (_, i) =>
      entry(100 - i, {}, { message: `${'Very long subject '.repeat(30)}`, branch: 'b'.repeat(200) }),
    );
    const message = buildListMessage(page(long), SITE, RAILS_BUILD_NOW);
    assertFitsMessage(message.blocks);
  });

  it('escapes commit messages and branch names', () => {
    const message = buildListMessage(
      page([
        entry(
          1,
          {},
          { message: 'Hi <!channel> ```', branch: '<@U1>', compare_url: null, author_name: '@here' },
        ),
      ]),
      SITE,
      RAILS_BUILD_NOW,
    );
    const texts = mrkdwnTexts(message.blocks);
    assert.doesNotMatch(texts, /<!channel>|<@U1>|```/);
    assert.match(texts, /`&lt;@U1&gt;`/);
    assert.match(texts, /@\u2060here/);
  });
});

describe('status', () => {
  it('shows the last build compactly with a button to show it', () => {
    const message = statusMessage(
      {
        repo: REPO,
        lastBuild: {
          id: 4125095,
          number: '6180',
          state: 'failed',
          duration: 5019,
          startedAt: '2013-01-13T15:55:17Z',
          finishedAt: '2013-01-13T17:20:17Z',
        },
      },
      SITE,
      RAILS_BUILD_NOW,
    );
    assertFitsMessage(message.blocks);
    assert.match(
      mrkdwnTexts(message.blocks),
      /^:x: <https:\/\/app\.travis-ci\.com\/github\/rails\/rails\|rails\/rails>: build <[^|]+\|#6180> \*failed\* · 1h 23m 39s · finished 35 min ago$/,
    );
    assert.deepEqual(actionIds(message.blocks), [ACTIONS.showBuild.id]);
    assert.match(
      mrkdwnTexts(statusMessage({ repo: REPO, lastBuild: undefined }, SITE, RAILS_BUILD_NOW).blocks),
      /no builds yet/,
    );
  });
});

describe('restart and cancel messages', () => {
  const target: ControlTarget = {
    type: 'build',
    id: 4125095,
    number: '6180',
    state: 'failed',
    repo: REPO,
    buildId: 4125095,
  };
  it('announces with a mention and a link', () => {
    assert.equal(
      controlAnnouncement('U0USER', 'restart', target, SITE).text,
      '<@U0USER> restarted build <https://app.travis-ci.com/github/rails/rails/builds/4125095|#6180> of rails/rails',
    );
    assert.equal(
      controlConfirmation('cancel', { ...target, type: 'job', id: 7, number: '6180.2' }, SITE).text,
      'Canceled job <https://app.travis-ci.com/github/rails/rails/jobs/7|#6180.2> of rails/rails.',
    );
  });
});

describe('the job list', () => {
  function jobList(count: number, atServiceLimit = false): JobList {
    const { jobs, commit } = railsBuild();
    const template: Job = {
      ...nth(jobs, 0),
      repository_slug: 'rails/rails',
      state: 'started',
      finished_at: null,
    };
    return {
      filter: { state: 'started' },
      entries: Array.from({ length: count }, (_, i) => ({
        job: { ...template, id: 1 + i, number: `${7000 + i}.1`, queue: 'builds.linux' },
        commit,
      })),
      atServiceLimit,
    };
  }

  it('lists jobs with repository, state, queue and branch, linked', () => {
    const message = jobListMessage(jobList(3), SITE, RAILS_BUILD_NOW);
    assertFitsMessage(message.blocks);
    const texts = mrkdwnTexts(message.blocks);
    assert.match(texts, /\*Jobs in state `started`\* on travis-ci\.com/);
    assert.match(
      texts,
      /:arrows_counterclockwise: <https:\/\/app\.travis-ci\.com\/github\/rails\/rails\/jobs\/1\|rails\/rails #7000\.1> running · `builds\.linux` · `master` · _Associaton -&gt; Association_ · running for 1h 59m 18s/,
    );
    assert.match(texts, /3 jobs/);
  });

  it('cuts 250 jobs to fit and says the service lists at most 250', () => {
    const message = jobListMessage(jobList(250, true), SITE, RAILS_BUILD_NOW);
    assertFitsMessage(message.blocks);
    const texts = mrkdwnTexts(message.blocks);
    const shown = [...texts.matchAll(/\|rails\/rails #/g)].length;
    assert.ok(shown > 10 && shown < 250, `${shown} shown`);
    assert.match(
      texts,
      new RegExp(
        `showing ${shown} of 250 jobs \\(cut to fit Slack\\); travis-ci\\.com lists at most 250, so there may be more`,
      ),
    );
  });
});

describe('the log message', () => {
  const job = { id: 4125096, number: '6180.1', state: 'failed' };
  it('puts the last lines in a code block a stray ``` cannot close, with a link to the full log', () => {
    const message = logMessage({
      site: SITE,
      slug: 'rails/rails',
      job,
      tail: {
        lines: ['ok', '``` <!channel>', 'done'],
        totalLines: 120,
        totalBytes: 999,
        truncated: true,
        empty: false,
      },
    });
    assert.equal(message.blocks, undefined);
    const [title = '', ...rest] = message.text.split('\n');
    assert.equal(
      title,
      '*Log of job <https://app.travis-ci.com/github/rails/rails/jobs/4125096|#6180.1> of rails/rails* · :x: failed · last 3 of 120 lines · <https://app.travis-ci.com/github/rails/rails/jobs/4125096|Full log on travis-ci.com>',
    );
    const body = rest.join('\n');
    assert.ok(body.startsWith('```\n') && body.endsWith('\n```'));
    assert.equal(body.split('```').length, 3, 'only the fences are ```');
    assert.match(body, /&lt;!channel&gt;/);
  });

  it('keeps the end of a long tail within its budget', () => {
    const lines = Array.from({ length: 500 }, (_, i) => `line ${i} ${'y'.repeat(100)}`);
    const message = logMessage({
      site: SITE,
      slug: 'rails/rails',
      job,
      tail: { lines, totalLines: 500, totalBytes: 60_000, truncated: false, empty: false },
    });
    assert.ok(message.text.length < LOG_CODE_CHARS + 400);
    assert.match(message.text, /earlier lines not shown/);
    assert.match(message.text, /line 499 y+\n```$/);
  });

  it('says when the log is empty', () => {
    const message = logMessage({
      site: SITE,
      slug: 'rails/rails',
      job: { ...job, state: 'started' },
      tail: { lines: [], totalLines: 0, totalBytes: 0, truncated: false, empty: true },
    });
    assert.match(message.text, /^The log of job <[^>]+> of rails\/rails is empty so far/);
  });
});
