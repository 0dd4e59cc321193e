import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import {
  assertAckedAtOnce,
  type Harness,
  startLinkedHarness,
  visibleText,
} from '../../helpers/app-harness.js';
import { ANSWER_MS, CI_TIMEOUT_MS } from '../../helpers/modals.js';
import { assertSlackAccepted } from '../../helpers/slack-messages.js';

describe('account views: accounts, repos, permissions, broadcasts, sync', () => {
  let h: Harness;
  before(async () => {
    h = await startLinkedHarness({ ciRequestTimeoutMs: CI_TIMEOUT_MS });
    // A user with 300 repositories, for the size limits.
    h.ci.state.addUser({ login: 'bulky' });
    for (let i = 0; i < 300; i++) {
      const repo = h.ci.state.addRepo({
        slug: `bulk/repository-with-a-long-name-${String(i).padStart(3, '0')}`,
        description: `Repository number ${i} <!channel> with a description that goes on for a while`,
      });
      h.ci.state.grant('bulky', repo.id, 'admin');
    }
    await h.link({ userId: 'U0BULK', login: 'bulky' });
    h.ci.state.addAccount({ login: 'evil', name: '<!channel> Evil Corp', type: 'organization', id: 9300 });
    h.ci.state.addMember('evil', 'rkh', { admin: true });
  });
  after(() => h.close());

  async function run(text: string, userId?: string) {
    const { ack, responseUrl } = await h.command(text, userId ? { userId } : {});
    assert.equal(ack.status, 200);
    assertAckedAtOnce(ack);
    const answer = await h.answer(responseUrl, ANSWER_MS);
    return { answer, text: visibleText(answer), responseUrl };
  }

  const lastRequest = (path: string) => h.ci.requests.filter((r) => r.path === path).at(-1);

  describe('accounts', () => {
    it('lists the accounts the user administers, privately, names escaped', async () => {
      const { answer, text } = await run('accounts');
      assert.equal(answer.response_type, 'ephemeral');
      assert.match(text, /Accounts you administer on travis-ci\.com/);
      assert.match(text, /<https:\/\/app\.travis-ci\.com\/rkh\|rkh>/);
      assert.match(text, /200 repositories/);
      assert.match(text, /evil.*\(&lt;!channel&gt; Evil Corp\)/);
      assert.doesNotMatch(text, /<!channel>/);
      assert.doesNotMatch(text, /Ruby on Rails/);
      assert.equal(lastRequest('/accounts')?.headers.authorization, 'token token-rkh');
    });

    it('with --all, also those the user is only a member of', async () => {
      const { text } = await run('accounts --all');
      assert.match(text, /All your accounts/);
      assert.match(text, /Ruby on Rails/);
      assert.equal(lastRequest('/accounts')?.query.get('all'), 'true');
    });

    it('shows a user without rights only their own account', async () => {
      const { text } = await run('accounts', 'U0VISITOR');
      assert.match(text, /\|visitor>/);
      assert.match(text, /1 account/);
      assert.doesNotMatch(text, /evil|rails/);
    });

    it('says when there are none', async () => {
      h.ci.fault(
        { method: 'GET', path: '/accounts' },
        { status: 200, body: '{"accounts":[]}', headers: { 'content-type': 'application/json' }, times: 1 },
      );
      const { text } = await run('accounts');
      assert.match(text, /No accounts on travis-ci\.com.*--all/);
    });

    it('asks an unlinked user to link, without calling the CI service', async () => {
      const before = h.ci.requests.length;
      const { text } = await run('accounts', 'U0NOBODY');
      assert.match(text, /account\.link/);
      assert.equal(h.ci.requests.length, before);
    });

    it('says the CI service is having trouble on a 5xx', async () => {
      h.ci.fault({ method: 'GET', path: '/accounts' }, { status: 503, times: 2 });
      const { text } = await run('accounts');
      assert.match(text, /having trouble \(it answered 503\)/);
    });

    it('answers a usage mistake with the usage line', async () => {
      const { answer } = await run('accounts --everything');
      assert.match(String(answer.text), /\/ci accounts/);
    });
  });

  describe('repos', () => {
    it('lists the user’s own repositories by default (member = their login)', async () => {
      const { text } = await run('repos');
      assert.match(text, /Repositories with `rkh` as a member/);
      assert.match(text, /rails\/rails/);
      assert.match(text, /rkh\/secret-project/);
      assert.match(text, /2 repositories/);
      assert.equal(lastRequest('/repos')?.query.get('member'), 'rkh');
    });

    it('passes the search term and filters on to GET /repos', async () => {
      const { text } = await run('repos secret --owner rkh --active');
      assert.match(text, /owned by `rkh`, matching `secret`, with builds enabled/);
      assert.match(text, /rkh\/secret-project/);
      const query = lastRequest('/repos')?.query;
      assert.equal(query?.get('search'), 'secret');
      assert.equal(query?.get('owner_name'), 'rkh');
      assert.equal(query?.get('active'), 'true');
      assert.equal(query?.has('member'), false);
    });

    it('says when nothing matches', async () => {
      const { text } = await run('repos --owner nobody-at-all');
      assert.match(text, /No repositories owned by `nobody-at-all`/);
    });

    it('cuts a 300-repository list to fit Slack, with "showing N of 300", descriptions escaped', async () => {
      const { text } = await run('repos', 'U0BULK');
      assert.match(text, /showing \d+ of 300 repositories/);
      assert.match(text, /&lt;!channel&gt;/);
      assert.doesNotMatch(text, /<!channel>/);
      assertSlackAccepted(h);
    });

    it('answers malformed options with the usage line', async () => {
      const { answer } = await run('repos --owner');
      assert.match(String(answer.text), /\/ci repos/);
      const { answer: bad } = await run('repos --owner "not a login!"');
      assert.match(String(bad.text), /login/);
    });

    it('asks an unlinked user to link', async () => {
      const { text } = await run('repos', 'U0NOBODY');
      assert.match(text, /account\.link/);
    });
  });

  describe('permissions', () => {
    it('names the repositories per access level, looked up in one call', async () => {
      const before = h.ci.requests.filter((r) => r.path === '/repos').length;
      const { text } = await run('permissions');
      assert.match(text, /\*Administer\* \(2\): <[^>]+\|rails\/rails>, <[^>]+\|rkh\/secret-project>/);
      assert.match(text, /\*Read\* \(2\)/);
      const lookups = h.ci.requests.filter((r) => r.path === '/repos').slice(before);
      assert.equal(lookups.length, 1);
      assert.deepEqual(lookups[0]?.query.getAll('ids[]').sort(), ['891', '9001']);
    });

    it('looks up at most 100 repositories and cuts the lists to fit', async () => {
      const { text } = await run('permissions', 'U0BULK');
      const lookup = lastRequest('/repos');
      assert.equal(lookup?.query.getAll('ids[]').length, 100);
      assert.match(text, /\*Administer\* \(300\)/);
      assert.match(text, /showing \d+ of 300/);
      assertSlackAccepted(h);
    });

    it('asks an unlinked user to link', async () => {
      const before = h.ci.requests.length;
      const { text } = await run('permissions', 'U0NOBODY');
      assert.match(text, /account\.link/);
      assert.equal(h.ci.requests.length, before);
    });

    it('shows "none" for a user without rights anywhere', async () => {
      const { text } = await run('permissions', 'U0VISITOR');
      assert.match(text, /\*Administer\*: none/);
    });

    it('says the CI service is having trouble on a 5xx', async () => {
      h.ci.fault({ method: 'GET', path: '/users/permissions' }, { status: 500, times: 2 });
      const { text } = await run('permissions');
      assert.match(text, /having trouble \(it answered 500\)/);
    });
  });

  describe('broadcasts', () => {
    it('shows the announcements, escaped', async () => {
      h.ci.state.addBroadcast('Maintenance tonight <!channel> @here');
      const { text } = await run('broadcasts');
      assert.match(text, /Hello!/);
      assert.match(text, /Maintenance tonight &lt;!channel&gt; @\u2060here/);
    });

    it('asks an unlinked user to link', async () => {
      const { text } = await run('broadcasts', 'U0NOBODY');
      assert.match(text, /account\.link/);
    });

    it('says the CI service is having trouble on a 5xx', async () => {
      h.ci.fault({ method: 'GET', path: '/broadcasts' }, { status: 502, times: 2 });
      const { text } = await run('broadcasts');
      assert.match(text, /having trouble \(it answered 502\)/);
    });
  });

  describe('sync', () => {
    it('starts a sync, says so, and says when it finished', async () => {
      const { answer, responseUrl } = await run('sync');
      assert.match(String(answer.text), /^Sync started/);
      const finished = await h.slack.waitForResponse(
        (r) => r.url === responseUrl && /Sync finished/.test(String(r.body.text)),
        ANSWER_MS,
      );
      assert.equal(finished.body.response_type, 'ephemeral');
      assert.equal(lastRequest('/users/sync')?.headers.authorization, 'token token-rkh');
    });

    it('answers "a sync is already running" to a 409', async () => {
      const user = h.ci.state.getUser('visitor');
      assert.ok(user);
      user.isSyncing = true;
      try {
        const { text } = await run('sync', 'U0VISITOR');
        assert.match(text, /A sync is already running/);
        assert.equal(lastRequest('/users/sync')?.headers.authorization, 'token token-visitor');
      } finally {
        user.isSyncing = false;
      }
    });

    it('says nothing was changed when the service fails', async () => {
      h.ci.fault({ method: 'POST', path: '/users/sync' }, { status: 500, times: 1 });
      const { text } = await run('sync');
      assert.match(text, /having trouble \(it answered 500\)\. Nothing was changed/);
    });

    it('asks an unlinked user to link', async () => {
      const { text } = await run('sync', 'U0NOBODY');
      assert.match(text, /account\.link/);
    });
  });
});
