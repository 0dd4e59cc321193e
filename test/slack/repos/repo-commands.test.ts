import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { FAKE_IDENTITY } from '../../fakes/slack/index.js';
import {
  assertAckedAtOnce,
  type Harness,
  startLinkedHarness,
  visibleText,
} from '../../helpers/app-harness.js';
import { assertSlackAccepted, elementOf } from '../../helpers/slack-messages.js';

describe('/ci repo, enable, disable, branches, requests', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness();
    const evil = h.ci.state.addRepo({
      slug: 'evil/repo',
      id: 7777,
      description: '<!channel> free <@U1> money',
    });
    h.ci.state.grant('rkh', evil, 'admin');
    h.ci.state.addBuild(evil, {
      state: 'passed',
      branch: '<!here>-branch',
      message: '<!channel> look at me',
      startedAt: '2024-01-01T10:00:00Z',
      finishedAt: '2024-01-01T10:01:00Z',
      duration: 60,
    });
    h.ci.state.addRequest(evil, {
      result: 'rejected',
      message: 'rejected by <!everyone> rule',
      branch: '<!channel>',
      commitMessage: '<!here> subject',
    });
  });
  after(() => h.close());

  describe('repo', () => {
    it('shows the description, activation and the last build with links, privately', async () => {
      const { ack, responseUrl } = await h.command('repo rails/rails');
      assert.equal(ack.status, 200);
      assertAckedAtOnce(ack);
      const answer = await h.answer(responseUrl);
      assert.equal(answer.response_type, 'ephemeral');
      const text = visibleText(answer);
      assert.match(text, /Ruby on Rails/);
      assert.match(text, /#6180/);
      assert.match(text, /failed/);
      assert.match(text, /1h 23m 39s/, 'duration of 5019 s');
      assert.match(text, /https:\/\/app\.travis-ci\.com\/github\/rails\/rails\/builds\/4125095/);
      assert.match(text, /not reported/, 'the fixture has no active field');
      const settings = elementOf(answer, 'settings.open');
      assert.deepEqual(JSON.parse(settings.value ?? ''), { d: 'com', repoId: 891, repo: 'rails/rails' });
      assert.equal(elementOf(answer, 'build.show').value, JSON.stringify({ d: 'com', id: 4125095 }));
      assertSlackAccepted(h);
    });

    it('takes a numeric id and reads a string `active`', async () => {
      const { responseUrl } = await h.command('repo 9001');
      const text = visibleText(await h.answer(responseUrl));
      assert.match(text, /rkh\/secret-project/);
      assert.match(text, /Builds\*\\non/);
    });

    it('asks an unlinked user to link, without calling the CI service', async () => {
      const before = h.ci.requests.length;
      const { responseUrl } = await h.command('repo rails/rails', { userId: 'U0NOBODY' });
      const answer = await h.answer(responseUrl);
      assert.match(visibleText(answer), /not linked your travis-ci\.com account/);
      elementOf(answer, 'account.link');
      assert.equal(h.ci.requests.length, before);
    });

    it('says plainly when the repository does not exist', async () => {
      const { responseUrl } = await h.command('repo nobody/nothing');
      assert.match(
        String((await h.answer(responseUrl)).text),
        /could not find nobody\/nothing on travis-ci\.com, or your travis-ci\.com account \(rkh\) cannot see it/,
      );
    });

    it('does not show a private repository to someone without access', async () => {
      const { responseUrl } = await h.command('repo rkh/secret-project', { userId: 'U0VISITOR' });
      const text = String((await h.answer(responseUrl)).text);
      assert.match(text, /could not find rkh\/secret-project/);
      assert.match(text, /\(visitor\)/);
      assert.doesNotMatch(text, /Not for everyone/);
    });

    it('answers a malformed repository with the usage line', async () => {
      const { responseUrl } = await h.command('repo not/a/repo');
      const text = visibleText(await h.answer(responseUrl));
      assert.match(text, /\/ci repo/);
    });

    it('escapes a description that tries to ping the channel', async () => {
      const { responseUrl } = await h.command('repo evil/repo');
      const text = visibleText(await h.answer(responseUrl));
      assert.doesNotMatch(text, /<!channel>|<@U1>/);
      assert.match(text, /&lt;!channel&gt; free &lt;@U1&gt; money/);
      assertSlackAccepted(h);
    });
  });

  describe('enable and disable', () => {
    it('enables with PUT /hooks and announces it in the channel', async () => {
      h.ci.state.requireRepo(891).active = false;
      const { responseUrl } = await h.command('enable rails/rails');
      const answer = await h.answer(responseUrl);
      assert.equal(answer.response_type, 'in_channel');
      assert.equal(
        answer.text,
        `<@${FAKE_IDENTITY.userId}> enabled <https://app.travis-ci.com/github/rails/rails|rails/rails>`,
      );
      const put = h.ci.requests.findLast((r) => r.method === 'PUT' && r.path === '/hooks');
      assert.deepEqual(JSON.parse(put?.body ?? ''), { hook: { id: 891, active: true } });
      assert.equal(h.ci.state.requireRepo(891).active, true);
    });

    it('disables quietly: only the user hears of it', async () => {
      const { responseUrl } = await h.command('disable rails/rails --quiet');
      const answer = await h.answer(responseUrl);
      assert.equal(answer.response_type, 'ephemeral');
      assert.match(String(answer.text), /Disabled .*rails\/rails.*builds are off/);
      assert.equal(h.ci.state.requireRepo(891).active, false);
      assert.equal(
        h.slack.responses.filter((r) => r.url === responseUrl).length,
        1,
        'one private answer, no announcement',
      );
    });

    it('tells someone without admin rights that their account cannot do it, and changes nothing', async () => {
      const { responseUrl } = await h.command('enable rails/rails', { userId: 'U0VISITOR' });
      const answer = await h.answer(responseUrl);
      assert.equal(answer.response_type, 'ephemeral');
      assert.match(
        String(answer.text),
        /Your travis-ci\.com account \(visitor\) is not allowed to enable rails\/rails/,
      );
      assert.equal(h.ci.state.requireRepo(891).active, false);
    });

    it('asks an unlinked user to link and sends nothing to the CI service', async () => {
      const before = h.ci.requests.length;
      const { responseUrl } = await h.command('disable rails/rails', { userId: 'U0NOBODY' });
      elementOf(await h.answer(responseUrl), 'account.link');
      assert.equal(h.ci.requests.length, before);
    });

    it('says when the repository is not there', async () => {
      const { responseUrl } = await h.command('enable nobody/nothing');
      assert.match(String((await h.answer(responseUrl)).text), /could not find nobody\/nothing/);
    });

    it('wants a repository (no channel default here)', async () => {
      const { responseUrl } = await h.command('enable');
      assert.match(visibleText(await h.answer(responseUrl)), /\/ci enable/);
    });
  });

  describe('branches', () => {
    it('lists the latest build of each branch with links', async () => {
      const { responseUrl } = await h.command('branches rails/rails');
      const answer = await h.answer(responseUrl);
      assert.equal(answer.response_type, 'ephemeral');
      const text = visibleText(answer);
      assert.match(text, /master/);
      assert.match(text, /builds\/4125095\|#6180>/);
      assertSlackAccepted(h);
    });

    it('escapes branch names and commit subjects', async () => {
      const { responseUrl } = await h.command('branches evil/repo');
      const text = visibleText(await h.answer(responseUrl));
      assert.doesNotMatch(text, /<!here>|<!channel>/);
      assert.match(text, /&lt;!here&gt;-branch/);
      assert.match(text, /&lt;!channel&gt; look at me/);
    });

    it('cuts a 100-branch answer to fit and says so', async () => {
      const body = JSON.stringify({
        branches: Array.from({ length: 100 }, (_, i) => ({
          id: 50_000 + i,
          repository_id: 891,
          commit_id: 60_000 + i,
          number: String(1000 + i),
          state: i % 2 ? 'passed' : 'failed',
          started_at: '2024-01-01T10:00:00Z',
          finished_at: '2024-01-01T10:20:00Z',
          duration: 1200,
          job_ids: [],
        })),
        commits: Array.from({ length: 100 }, (_, i) => ({
          id: 60_000 + i,
          sha: 'abcdef0123456789',
          branch: `feature/a-rather-long-branch-name-number-${i}-${'x'.repeat(40)}`,
          message: `Commit ${i}: ${'a long subject line '.repeat(5)}`,
        })),
      });
      h.ci.fault({ method: 'GET', path: '/repos/891/branches' }, { status: 200, body, times: 1 });
      const { responseUrl } = await h.command('branches rails/rails');
      const answer = await h.answer(responseUrl);
      const text = visibleText(answer);
      assert.match(text, /showing \d+ of 100 branches/);
      assert.match(text, /number-0-/);
      assert.ok((answer.blocks as unknown[]).length <= 50);
      assertSlackAccepted(h);
    });

    it('does not list the branches of a private repository to someone without access', async () => {
      const { responseUrl } = await h.command('branches rkh/secret-project', { userId: 'U0VISITOR' });
      assert.match(String((await h.answer(responseUrl)).text), /could not find rkh\/secret-project/);
    });

    it('asks an unlinked user to link', async () => {
      const { responseUrl } = await h.command('branches rails/rails', { userId: 'U0NOBODY' });
      elementOf(await h.answer(responseUrl), 'account.link');
    });

    it('says when the repository is not there', async () => {
      const { responseUrl } = await h.command('branches nobody/nothing');
      assert.match(String((await h.answer(responseUrl)).text), /could not find nobody\/nothing/);
    });

    it('refuses extra arguments with the usage line', async () => {
      const { responseUrl } = await h.command('branches rails/rails extra');
      assert.match(visibleText(await h.answer(responseUrl)), /\/ci branches/);
    });
  });

  describe('requests', () => {
    it('lists requests with event, branch, commit and when; rejected ones show the reason', async () => {
      const { responseUrl } = await h.command('requests rails/rails');
      const answer = await h.answer(responseUrl);
      const text = visibleText(answer);
      assert.match(text, /rejected/);
      assert.match(text, /Branch \\"gh-pages\\" not included per configuration\./);
      assert.match(text, /accepted/);
      assert.match(text, /push/);
      assert.match(text, /gh-pages/);
      assert.match(text, /`[0-9a-f]{7}`/);
      const sent = h.ci.requests.findLast((r) => r.path === '/requests');
      assert.equal(sent?.query.get('limit'), '25');
      assertSlackAccepted(h);
    });

    it('passes --limit on', async () => {
      const { responseUrl } = await h.command('requests rails/rails --limit 1');
      await h.answer(responseUrl);
      assert.equal(h.ci.requests.findLast((r) => r.path === '/requests')?.query.get('limit'), '1');
    });

    it('refuses a limit over 100 with the usage line, before calling the CI service', async () => {
      const before = h.ci.requests.length;
      const { responseUrl } = await h.command('requests rails/rails --limit 500');
      assert.match(visibleText(await h.answer(responseUrl)), /--limit/);
      assert.equal(h.ci.requests.length, before);
    });

    it('escapes reasons, branches and subjects', async () => {
      const { responseUrl } = await h.command('requests evil/repo');
      const text = visibleText(await h.answer(responseUrl));
      assert.doesNotMatch(text, /<!channel>|<!here>|<!everyone>/);
      assert.match(text, /rejected by &lt;!everyone&gt; rule/);
    });

    it('fits 100 long requests into one message', async () => {
      for (let i = 0; i < 100; i++) {
        h.ci.state.addRequest(7777, {
          result: i % 2 ? 'accepted' : 'rejected',
          message: `reason ${i} ${'because '.repeat(20)}`,
          branch: `branch-${i}`,
          commitMessage: `subject ${i} ${'words '.repeat(20)}`,
        });
      }
      const { responseUrl } = await h.command('requests evil/repo --limit 100');
      const text = visibleText(await h.answer(responseUrl));
      assert.match(text, /showing \d+ of 100 requests/);
      assertSlackAccepted(h);
    });

    it('does not show requests of a private repository to someone without access', async () => {
      const { responseUrl } = await h.command('requests rkh/secret-project', { userId: 'U0VISITOR' });
      assert.match(String((await h.answer(responseUrl)).text), /could not find rkh\/secret-project/);
    });

    it('asks an unlinked user to link', async () => {
      const { responseUrl } = await h.command('requests rails/rails', { userId: 'U0NOBODY' });
      elementOf(await h.answer(responseUrl), 'account.link');
    });

    it('says when the repository is not there', async () => {
      const { responseUrl } = await h.command('requests nobody/nothing');
      assert.match(String((await h.answer(responseUrl)).text), /could not find nobody\/nothing/);
    });
  });
});
