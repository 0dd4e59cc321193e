import assert from 'node:assert/strict';
import { after, before, describe, it } from 'node:test';
import { getRequest, listRequests } from '../../src/ci/requests.js';
import { lines, RAILS_ID, type Setup, setUp } from './helpers.js';

describe('CI client: requests (4.14)', () => {
  let ci: Setup;
  let requestIds: number[];
  before(async () => {
    ci = await setUp();
    for (let i = 0; i < 30; i += 1) ci.fake.state.addRequest(RAILS_ID, { branch: `b${i}` });
    requestIds = [...ci.fake.state.requests.values()]
      .filter((r) => r.repositoryId === RAILS_ID)
      .map((r) => r.id)
      .sort((a, b) => b - a);
    ci.take();
  });
  after(() => ci.close());

  it('GET /requests by repository_id sends the default limit 25', async () => {
    const { requests, commits } = await listRequests(ci.as(null), { repositoryId: RAILS_ID });
    assert.deepEqual(
      requests.map((r) => r.id),
      requestIds.slice(0, 25),
    );
    assert.ok(commits.length > 0);
    assert.deepEqual(lines(ci.take()), [`GET /requests?repository_id=${RAILS_ID}&limit=25`]);
  });

  it('GET /requests by slug with limit and older_than', async () => {
    const olderThan = requestIds[9] ?? 0;
    const { requests } = await listRequests(ci.as(null), { slug: 'rails/rails', limit: 100, olderThan });
    assert.deepEqual(
      requests.map((r) => r.id),
      requestIds.slice(10),
    );
    assert.deepEqual(lines(ci.take()), [`GET /requests?slug=rails/rails&limit=100&older_than=${olderThan}`]);
  });

  it('GET /requests/{id} with its commit, the rejected one with its message', async () => {
    const rejected = [...ci.fake.state.requests.values()].find((r) => r.result === 'rejected');
    assert.ok(rejected);
    const { request, commit } = await getRequest(ci.as(null), rejected.id);
    assert.equal(request.result, 'rejected');
    assert.equal(request.message, 'Branch "gh-pages" not included per configuration.');
    assert.equal(request.event_type, 'push');
    assert.equal(commit?.id, rejected.commitId);
    assert.deepEqual(lines(ci.take()), [`GET /requests/${rejected.id}`]);
  });
});
