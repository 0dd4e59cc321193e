import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { ACTIONS, decodeValue } from '../../../src/slack/ids.js';
import { buildCardBlocks, buildDetailMessage, orderJobs } from '../../../src/slack/views/build-card.js';
import { jobCardBlocks } from '../../../src/slack/views/job-card.js';
import { actionIds, assertFitsMessage, mrkdwnTexts } from '../../helpers/slack-messages.js';
import { manyJobs, nth, RAILS_BUILD_NOW, railsBuild, railsBuildCard, SITE } from '../../helpers/view-data.js';

const text = (value: unknown) => JSON.stringify(value);

describe('the build card', () => {
  it('shows the build, its origin and commit, and the matrix with each job’s config', () => {
    const { build, commit, jobs } = railsBuild();
    const message = buildDetailMessage({
      site: SITE,
      slug: 'rails/rails',
      build,
      commit,
      jobs,
      now: RAILS_BUILD_NOW,
    });
    assertFitsMessage(message.blocks);
    const shown = text(message.blocks);
    assert.equal(message.text, 'rails/rails #6180 failed: Associaton -> Association');
    assert.match(shown, /rails\/rails #6180/);
    assert.match(
      shown,
      /<https:\/\/github\.com\/rails\/rails\/compare\/6581d798e830\.\.\.a0265b98f16c\|master> · push/,
    );
    assert.match(shown, /_Associaton -&gt; Association_ · Steve Klabnik/);
    assert.match(shown, /12 jobs: 7 failed, 5 passed/);
    assert.match(
      shown,
      /<https:\/\/app\.travis-ci\.com\/github\/rails\/rails\/jobs\/4125096\|#6180\.1> failed · rvm 1\.9\.3 · GEM=railties · 14m 16s/,
    );
  });

  it('offers restart and cancel of the build (cancel behind a confirm), and per job a log button and menus', () => {
    const { build, commit, jobs } = railsBuild();
    jobs[2] = { ...nth(jobs, 2), state: 'started', finished_at: null };
    const blocks = railsBuildCard({ build, commit, jobs });
    const ids = actionIds(blocks);
    assert.ok(ids.includes('build.restart:4125095'));
    assert.ok(ids.includes('build.cancel:4125095'));
    assert.equal(ids.filter((id) => id.startsWith('job.log:')).length, 12);
    const cancel = blocks
      .flatMap((b) => (b.type === 'actions' ? b.elements : []))
      .find((e) => 'action_id' in e && e.action_id === 'build.cancel:4125095');
    assert.ok(cancel && 'confirm' in cancel && cancel.confirm, 'cancel build asks first');
    const menus = blocks
      .flatMap((b) => (b.type === 'actions' ? b.elements : []))
      .filter((e) => e.type === 'static_select');
    const restartMenu = menus.find((m) => m.action_id === 'job.restart:4125095');
    const cancelMenu = menus.find((m) => m.action_id === 'job.cancel:4125095');
    assert.equal(restartMenu?.options?.length, 11, 'finished jobs can be restarted');
    assert.equal(cancelMenu?.options?.length, 1, 'the running job can be canceled');
    assert.ok(cancelMenu?.confirm, 'cancel job asks first');
    assert.deepEqual(decodeValue(ACTIONS.cancelJob, cancelMenu?.options?.[0]?.value), {
      d: 'com',
      id: jobs[2]?.id,
    });
  });

  it('marks jobs allowed to fail and lists real failures before them', () => {
    const { build, commit, jobs } = railsBuild();
    const mixed = [
      { ...nth(jobs, 1), state: 'passed' },
      { ...nth(jobs, 0), state: 'failed', allow_failure: true },
      { ...nth(jobs, 6), state: 'errored' },
    ];
    assert.deepEqual(
      orderJobs(mixed).map((j) => j.number),
      ['6180.7', '6180.1', '6180.2'],
    );
    const shown = text(
      buildCardBlocks({ site: SITE, slug: 'rails/rails', build, commit, jobs: mixed, now: RAILS_BUILD_NOW }),
    );
    assert.match(shown, /#6180\.1> failed · rvm 1\.9\.3 · GEM=railties · 14m 16s · _allowed to fail_/);
  });

  it('fits a 300-job build: failed jobs first, a "showing N of M" note and a link to the whole build', () => {
    const { build, commit } = railsBuild();
    const jobs = manyJobs(build, 300, (n) => (n % 50 === 0 ? 'failed' : n % 7 === 0 ? 'started' : 'passed'));
    const blocks = railsBuildCard({ build, commit, jobs });
    assertFitsMessage(blocks);
    const shown = text(blocks);
    const listed = [...shown.matchAll(/\|#6180\.(\d+)>/g)].map((m) => Number(m[1]));
    assert.deepEqual(listed.slice(0, 6), [50, 100, 150, 200, 250, 300]);
    assert.ok(listed.length >= 20, `${listed.length} jobs listed`);
    assert.match(
      shown,
      new RegExp(
        `Showing ${listed.length} of 300 jobs, failed first · <https://app\\.travis-ci\\.com/github/rails/rails/builds/4125095\\|all jobs on travis-ci\\.com>`,
      ),
    );
    const menuOptions = blocks
      .flatMap((b) => (b.type === 'actions' ? b.elements : []))
      .flatMap((e) => (e.type === 'static_select' ? (e.options ?? []) : []));
    assert.equal(menuOptions.length, listed.length, 'menus offer the listed jobs');
  });

  it('keeps a preview short and can leave out every button', () => {
    const { build, commit, jobs } = railsBuild();
    const blocks = buildCardBlocks(
      { site: SITE, slug: 'rails/rails', build, commit, jobs, now: RAILS_BUILD_NOW },
      { maxJobs: 5, maxText: 4_000, interactive: false },
    );
    assertFitsMessage(blocks);
    assert.deepEqual(actionIds(blocks), []);
    assert.match(text(blocks), /Showing 5 of 12 jobs/);
  });

  it('escapes what the CI service says: commit messages, branches, authors and env', () => {
    const { build, commit, jobs } = railsBuild();
    const evil = {
      ...commit,
      message: 'Ping <!channel> and <@U0ALL> ```\nsecond line <!here>',
      branch: '<@U1>-branch',
      author_name: '<!everyone>',
      compare_url: null,
    };
    const evilJobs = [{ ...nth(jobs, 0), config: { env: 'X=<!channel>' } }];
    const blocks = buildCardBlocks({
      site: SITE,
      slug: 'rails/rails',
      build,
      commit: evil,
      jobs: evilJobs,
      now: RAILS_BUILD_NOW,
    });
    const shown = text(blocks);
    assert.doesNotMatch(mrkdwnTexts(blocks), /<!channel>|<@U1>|<@U0ALL>|<!everyone>|<!here>|```/);
    assert.match(shown, /Ping &lt;!channel&gt; and &lt;@U0ALL&gt;/);
    assert.match(shown, /`&lt;@U1&gt;-branch`/);
    assert.match(shown, /X=&lt;!channel&gt;/);
    assert.doesNotMatch(shown, /second line/, 'only the subject is shown');
  });

  it('links a pull request build to the pull request and names its title', () => {
    const { build, commit, jobs } = railsBuild();
    const pr = {
      ...build,
      event_type: 'pull_request',
      pull_request: true,
      pull_request_number: '42',
      pull_request_title: 'Fix <!here>',
    };
    const shown = text(
      buildCardBlocks({ site: SITE, slug: 'rails/rails', build: pr, commit, jobs, now: RAILS_BUILD_NOW }),
    );
    assert.match(
      shown,
      /<https:\/\/github\.com\/rails\/rails\/pull\/42\|pull request #42> “Fix &lt;!here&gt;” into `master`/,
    );
  });
});

describe('the job card', () => {
  it('shows one job with Log, Restart, Cancel (confirm) and its build', () => {
    const { commit, jobs } = railsBuild();
    const job = nth(jobs, 0);
    const blocks = jobCardBlocks({ site: SITE, slug: 'rails/rails', job, commit, now: RAILS_BUILD_NOW });
    assertFitsMessage(blocks);
    assert.deepEqual(actionIds(blocks), [
      'job.log:4125096',
      'job.restart:4125096',
      'job.cancel:4125096',
      'build.show:4125095',
    ]);
    assert.match(
      text(blocks),
      /Job of build <https:\/\/app\.travis-ci\.com\/github\/rails\/rails\/builds\/4125095\|#6180> of rails\/rails/,
    );
  });
});
