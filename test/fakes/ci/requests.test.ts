import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { startFakeCi } from './index.js';
import { call, field } from './test-helpers.js';

type Request = { id: number; result: string | null; message: string | null; branch: string };

describe('fake CI: requests', () => {
  it('lists a repository’s requests newest first, 25 by default, at most 100, before older_than', async (t) => {
    const ci = await startFakeCi({ seed: false });
    t.after(() => ci.close());
    const repo = ci.state.addRepo({ slug: 'acme/requests' });
    const made = Array.from({ length: 120 }, (_, i) =>
      ci.state.addRequest(repo, {
        result: i % 2 === 0 ? 'accepted' : 'rejected',
        message: i % 2 ? 'skipped' : null,
      }),
    );
    const newestFirst = made.map((r) => r.id).reverse();
    const page = await call(ci.url, '/requests?slug=acme/requests');
    const requests = field(page.json, 'requests') as Request[];
    assert.deepEqual(
      requests.map((r) => r.id),
      newestFirst.slice(0, 25),
    );
    assert.equal((field(page.json, 'commits') as unknown[]).length, 25);
    const big = await call(ci.url, `/requests?repository_id=${repo.id}&limit=500`);
    assert.equal((field(big.json, 'requests') as unknown[]).length, 100);
    const older = await call(ci.url, `/requests?repository_id=${repo.id}&limit=2&older_than=${made[10]?.id}`);
    assert.deepEqual(
      (field(older.json, 'requests') as Request[]).map((r) => r.id),
      [made[9]?.id, made[8]?.id],
    );
    const missing = await call(ci.url, '/requests');
    assert.equal(missing.status, 400);
  });

  it('answers one request with its commit', async (t) => {
    const ci = await startFakeCi();
    t.after(() => ci.close());
    const rejected = (
      field((await call(ci.url, '/requests?repository_id=891')).json, 'requests') as Request[]
    ).find((r) => r.result === 'rejected');
    assert.deepEqual(
      [rejected?.branch, rejected?.message],
      ['gh-pages', 'Branch "gh-pages" not included per configuration.'],
    );
    const one = await call(ci.url, `/requests/${rejected?.id}`);
    assert.equal(field(one.json, 'request', 'id'), rejected?.id);
    assert.equal(field(one.json, 'commit', 'branch'), 'gh-pages');
    assert.equal((await call(ci.url, '/requests/1')).status, 404);
  });
});
