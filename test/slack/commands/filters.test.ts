import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  BUILD_EVENTS,
  formatFilters,
  readFilters,
  type SubscriptionFilters,
} from '../../../src/slack/commands/filters.js';

describe('readFilters', () => {
  it('reads every filter of the issue', () => {
    const result = readFilters([
      'branches:main,release/*',
      'events:push,pull_request,cron,api',
      'only:failures',
      'exclude-authors:dependabot*,renovate*',
      'threads:off',
      'started:on',
    ]);
    assert.deepEqual(result, {
      ok: true,
      filters: {
        branches: ['main', 'release/*'],
        events: ['push', 'pull_request', 'cron', 'api'],
        only: 'failures',
        excludeAuthors: ['dependabot*', 'renovate*'],
        threads: false,
        started: true,
      },
    });
    assert.deepEqual(readFilters(['ONLY=Changes', 'Events:PUSH']), {
      ok: true,
      filters: { only: 'changes', events: ['push'] },
    });
    assert.deepEqual(readFilters([]), { ok: true, filters: {} });
  });

  it('explains mistakes', () => {
    for (const [tokens, reason] of [
      [['only:all'], /only:failures or only:changes/],
      [['events:deploy'], /push, pull_request, cron, api/],
      [['branches:a,,b'], /comma-separated/],
      [['threads:no'], /threads:on or threads:off/],
      [['nope'], /key:value/],
      [['colour:red'], /not a filter/],
      [['only:failures', 'only:failures'], /given twice/],
    ] as const) {
      const result = readFilters(tokens);
      assert.ok(!result.ok, tokens.join(' '));
      assert.match(result.reason, reason);
    }
  });

  it('reads back what formatFilters writes', () => {
    const glob = fc.stringMatching(/^[A-Za-z0-9*/._-]{1,20}$/);
    const filters: fc.Arbitrary<SubscriptionFilters> = fc.record(
      {
        branches: fc.array(glob, { minLength: 1, maxLength: 4 }),
        events: fc.uniqueArray(fc.constantFrom(...BUILD_EVENTS), { minLength: 1 }),
        only: fc.constantFrom('failures' as const, 'changes' as const),
        excludeAuthors: fc.array(glob, { minLength: 1, maxLength: 4 }),
        threads: fc.boolean(),
        started: fc.boolean(),
      },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(filters, (f) => {
        assert.deepEqual(readFilters(formatFilters(f)), { ok: true, filters: { ...f } });
      }),
    );
  });
});
