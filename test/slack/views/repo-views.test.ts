import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import {
  activationAnnouncement,
  branchesMessage,
  channelRepoShown,
  repoMessage,
  requestsMessage,
} from '../../../src/slack/views/repos.js';
import { assertFitsMessage } from '../../helpers/slack-messages.js';
import { build, commit, NOW, repository, request, SITE } from '../../helpers/view-data.js';

describe('repository views', () => {
  it('repo: description escaped and cut, last build linked, within limits', () => {
    const message = repoMessage(
      repository({ description: `<!channel> ${'long '.repeat(2_000)}`, active: false }),
      SITE,
      NOW,
    );
    const text = JSON.stringify(message);
    assert.doesNotMatch(text, /<!channel>/);
    assert.match(text, /&lt;!channel&gt;/);
    assert.match(text, /<https:\/\/app\.travis-ci\.com\/github\/rails\/rails\/builds\/4125095\|#6180>/);
    assert.match(text, /Builds\*\\noff/);
    assert.match(text, /Finished\*\\n1 hour ago/);
    assertFitsMessage(message.blocks);
  });

  it('repo: a repository never built has no last-build button', () => {
    const message = repoMessage(repository({ last_build_id: null, last_build_number: undefined }), SITE, NOW);
    assert.match(JSON.stringify(message), /none yet/);
    assert.doesNotMatch(JSON.stringify(message), /build\.show/);
  });

  it('branches: 100 branches with long, hostile names fit one message with a note', () => {
    const branches = Array.from({ length: 100 }, (_, i) => ({
      branch: `<!here>${'b'.repeat(250)}${i}`,
      build: build(i, { state: i % 3 ? 'passed' : 'failed' }),
      commit: commit(i, { message: `<@U123> ${'subject '.repeat(30)}` }),
    }));
    const message = branchesMessage(repository(), branches, SITE, NOW);
    const text = JSON.stringify(message);
    assert.match(text, /showing \d+ of 100 branches/);
    assert.doesNotMatch(text, /<!here>|<@U123>/);
    assertFitsMessage(message.blocks);
  });

  it('branches: says so when there are none', () => {
    assert.match(JSON.stringify(branchesMessage(repository(), [], SITE, NOW)), /has been built yet/);
  });

  it('requests: rejected ones show their reason; pull requests are named; 100 long ones fit', () => {
    const requests = Array.from({ length: 100 }, (_, i) => ({
      request: request(i, {
        result: i % 2 ? 'rejected' : null,
        message: `<!everyone> ${'reason '.repeat(60)}`,
        pull_request: i % 5 === 0,
        pull_request_number: i,
      }),
      commit: commit(i),
    }));
    const message = requestsMessage(repository(), requests, SITE, NOW);
    const text = JSON.stringify(message);
    assert.match(text, /rejected/);
    assert.match(text, /pending/);
    assert.match(text, /pull request #5/);
    assert.match(text, /↳ _&lt;!everyone&gt; reason/);
    assert.match(text, /showing \d+ of 100 requests/);
    assertFitsMessage(message.blocks);
  });

  it('announcements mention the user and link the repository', () => {
    assert.equal(
      activationAnnouncement('U1', repository(), true, SITE).text,
      '<@U1> enabled <https://app.travis-ci.com/github/rails/rails|rails/rails>',
    );
  });

  it('channel repository: shows who set it', () => {
    const text = channelRepoShown(
      { repo: 'rails/rails', deployment: 'com', setBy: 'U42', setAt: '2024-06-01T11:00:00Z' },
      'travis-ci.com',
      NOW,
    ).text;
    assert.match(text, /\*rails\/rails\* on travis-ci\.com, set by <@U42> 1 hour ago/);
  });
});
