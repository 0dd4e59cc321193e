import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { BUILD_EVENTS, type SubscriptionFilters } from '../../src/notify/filter-types.js';
import {
  announcesStart,
  type BuildFacts,
  buildEventOf,
  classifyChange,
  globMatches,
  placement,
  shouldNotify,
} from '../../src/notify/filters.js';

const FINISHED = ['passed', 'failed', 'errored', 'canceled'] as const;
const RUNNING = ['created', 'received', 'queued', 'ready', 'started'] as const;

const build = (facts: Partial<BuildFacts> = {}): BuildFacts => ({
  state: 'passed',
  branch: 'main',
  eventType: 'push',
  pullRequest: false,
  authorName: 'Grace Hopper',
  authorEmail: 'grace@example.com',
  committerName: 'Grace Hopper',
  ...facts,
});

describe('globMatches', () => {
  it('matches * across segments and / alike, everything else literally', () => {
    assert.ok(globMatches('release/*', 'release/1.2'));
    assert.ok(globMatches('release/*', 'release/1.2/hotfix'));
    assert.ok(globMatches('release/*', 'release/'));
    assert.ok(!globMatches('release/*', 'release'));
    assert.ok(!globMatches('release/*', 'pre-release/1'));
    assert.ok(globMatches('*', ''));
    assert.ok(globMatches('*', 'any/thing'));
    assert.ok(globMatches('main', 'main'));
    assert.ok(!globMatches('main', 'main2'));
    assert.ok(!globMatches('main', 'Main'), 'branch globs are case-sensitive');
    assert.ok(globMatches('*-stable', '4-0-stable'));
    assert.ok(globMatches('feature/*/wip', 'feature/x/y/wip'));
    assert.ok(!globMatches('v?', 'v1'), '? is literal');
    assert.ok(globMatches('v?', 'v?'));
    assert.ok(globMatches('a[1]', 'a[1]'), '[ is literal');
    assert.ok(globMatches('**', 'x'));
  });

  it('ignores case when asked', () => {
    assert.ok(globMatches('dependabot*', 'Dependabot[bot]', { ignoreCase: true }));
    assert.ok(!globMatches('dependabot*', 'Dependabot[bot]'));
  });

  it('stays fast with many stars', () => {
    const started = performance.now();
    assert.ok(!globMatches(`${'*a'.repeat(100)}b`, 'a'.repeat(255)));
    assert.ok(performance.now() - started < 500);
  });

  it('agrees with a regular expression built from the glob', () => {
    const alphabet = fc.constantFrom('a', 'b', '/', '.', '*');
    fc.assert(
      fc.property(
        fc.string({ unit: alphabet, maxLength: 8 }),
        fc.string({ unit: alphabet, maxLength: 10 }),
        (glob, text) => {
          const source = glob
            .split('*')
            .map((part) => part.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&'))
            .join('.*');
          assert.equal(globMatches(glob, text), new RegExp(`^${source}$`, 's').test(text));
        },
      ),
    );
  });

  it('a literal glob matches exactly itself, and a glob with * prefixes matches any extension', () => {
    const text = fc.string({ maxLength: 30 }).filter((s) => !s.includes('*'));
    fc.assert(
      fc.property(text, text, (a, b) => {
        assert.equal(globMatches(a, b), a === b);
        assert.ok(globMatches(`${a}*`, `${a}${b}`));
        assert.ok(globMatches(`*${a}`, `${b}${a}`));
      }),
    );
  });
});

describe('buildEventOf and classifyChange', () => {
  it('reads the event type, or derives it from the pull request flag', () => {
    assert.equal(buildEventOf({ eventType: 'cron' }), 'cron');
    assert.equal(buildEventOf({ eventType: null, pullRequest: true }), 'pull_request');
    assert.equal(buildEventOf({}), 'push');
  });

  it('names broken, fixed and still failing', () => {
    assert.equal(classifyChange('failed', 'passed'), 'broken');
    assert.equal(classifyChange('errored', 'passed'), 'broken');
    assert.equal(classifyChange('passed', 'failed'), 'fixed');
    assert.equal(classifyChange('passed', 'errored'), 'fixed');
    assert.equal(classifyChange('failed', 'errored'), 'still_failing');
    assert.equal(classifyChange('errored', 'failed'), 'still_failing');
    assert.equal(classifyChange('passed', 'passed'), undefined);
    assert.equal(classifyChange('canceled', 'failed'), undefined);
  });

  it('treats a missing or canceled previous build as no history', () => {
    assert.equal(classifyChange('failed'), 'broken');
    assert.equal(classifyChange('failed', 'canceled'), 'broken');
    assert.equal(classifyChange('passed'), undefined);
    assert.equal(classifyChange('passed', 'canceled'), undefined);
  });
});

describe('shouldNotify', () => {
  it('posts every finished build without filters, and no running build', () => {
    for (const state of FINISHED) assert.equal(shouldNotify({}, build({ state })).post, true, state);
    for (const state of RUNNING) {
      const decision = shouldNotify({}, build({ state }));
      assert.equal(decision.post, false, state);
      assert.match(decision.reason, /finish/);
    }
    assert.equal(shouldNotify({}, build({ state: 'some-new-state' })).post, false);
  });

  it('with started:on posts running builds too (and keeps them)', () => {
    const filters: SubscriptionFilters = { started: true };
    for (const state of [...RUNNING, ...FINISHED])
      assert.equal(shouldNotify(filters, build({ state })).post, true);
    assert.equal(announcesStart(filters), true);
    assert.equal(announcesStart({ started: false }), false);
  });

  it('filters branches by glob; release/* matches release/1.2', () => {
    const filters: SubscriptionFilters = { branches: ['main', 'release/*'] };
    assert.equal(shouldNotify(filters, build({ branch: 'main' })).post, true);
    assert.equal(shouldNotify(filters, build({ branch: 'release/1.2' })).post, true);
    const other = shouldNotify(filters, build({ branch: 'feature/x' }));
    assert.equal(other.post, false);
    assert.match(other.reason, /feature\/x/);
    assert.equal(shouldNotify(filters, build({ branch: null })).post, false);
  });

  it('filters events; a pull request build matches pull_request', () => {
    const prOnly: SubscriptionFilters = { events: ['pull_request'] };
    assert.equal(shouldNotify(prOnly, build({ eventType: 'pull_request', pullRequest: true })).post, true);
    assert.equal(shouldNotify(prOnly, build({ eventType: undefined, pullRequest: true })).post, true);
    assert.equal(shouldNotify(prOnly, build({ eventType: 'push' })).post, false);
    const scheduled: SubscriptionFilters = { events: ['cron', 'api'] };
    assert.equal(shouldNotify(scheduled, build({ eventType: 'cron' })).post, true);
    assert.equal(shouldNotify(scheduled, build({ eventType: 'api' })).post, true);
    assert.equal(shouldNotify(scheduled, build({ eventType: 'push' })).post, false);
  });

  it('only:failures posts failed and errored builds only', () => {
    const filters: SubscriptionFilters = { only: 'failures' };
    assert.equal(shouldNotify(filters, build({ state: 'failed' })).post, true);
    assert.equal(shouldNotify(filters, build({ state: 'errored' })).post, true);
    assert.equal(shouldNotify(filters, build({ state: 'passed' })).post, false);
    assert.equal(shouldNotify(filters, build({ state: 'canceled' })).post, false);
  });

  it('only:changes posts broken, fixed and still failing builds', () => {
    const filters: SubscriptionFilters = { only: 'changes' };
    const cases: [string, string | undefined, boolean, string | undefined][] = [
      ['failed', 'passed', true, 'broken'],
      ['passed', 'failed', true, 'fixed'],
      ['errored', 'failed', true, 'still_failing'],
      ['passed', 'passed', false, undefined],
      ['canceled', 'failed', false, undefined],
      ['failed', undefined, true, 'broken'],
      ['passed', undefined, false, undefined],
    ];
    for (const [state, previous, post, change] of cases) {
      const decision = shouldNotify(filters, build({ state }), previous);
      assert.equal(decision.post, post, `${previous} → ${state}`);
      assert.equal(decision.change, change, `${previous} → ${state}`);
    }
  });

  it('an only: filter waits for the end even with started:on', () => {
    for (const only of ['failures', 'changes'] as const) {
      const filters: SubscriptionFilters = { only, started: true };
      assert.equal(announcesStart(filters), false);
      assert.equal(shouldNotify(filters, build({ state: 'started' })).post, false);
      assert.equal(shouldNotify(filters, build({ state: 'failed' }), 'passed').post, true);
    }
  });

  it('excludes authors by glob on author name, author e-mail and committer name, ignoring case', () => {
    const filters: SubscriptionFilters = { excludeAuthors: ['dependabot*', 'renovate*'] };
    const bot = shouldNotify(filters, build({ authorName: 'dependabot[bot]' }));
    assert.equal(bot.post, false);
    assert.match(bot.reason, /dependabot\[bot\]/);
    assert.equal(shouldNotify(filters, build({ authorName: 'Dependabot[bot]' })).post, false);
    assert.equal(
      shouldNotify(filters, build({ authorEmail: 'renovate@whitesourcesoftware.com' })).post,
      false,
    );
    assert.equal(shouldNotify(filters, build({ committerName: 'Renovate Bot' })).post, false);
    assert.equal(shouldNotify(filters, build()).post, true);
    assert.equal(
      shouldNotify(filters, build({ authorName: null, authorEmail: null, committerName: null })).post,
      true,
    );
  });

  it('placement: threads unless threads:off', () => {
    assert.equal(placement({}), 'thread');
    assert.equal(placement({ threads: true }), 'thread');
    assert.equal(placement({ threads: false }), 'channel');
  });

  const filtersArb: fc.Arbitrary<SubscriptionFilters> = fc.record(
    {
      branches: fc.array(fc.constantFrom('main', 'release/*', '*', 'dev*'), { minLength: 1, maxLength: 3 }),
      events: fc.uniqueArray(fc.constantFrom(...BUILD_EVENTS), { minLength: 1 }),
      only: fc.constantFrom('failures' as const, 'changes' as const),
      excludeAuthors: fc.array(fc.constantFrom('dependabot*', 'renovate*', '*bot*'), {
        minLength: 1,
        maxLength: 2,
      }),
      threads: fc.boolean(),
      started: fc.boolean(),
    },
    { requiredKeys: [] },
  );
  const buildArb: fc.Arbitrary<BuildFacts> = fc.record({
    state: fc.constantFrom(...FINISHED, ...RUNNING),
    branch: fc.constantFrom('main', 'release/1.2', 'dev', 'feature/x', null),
    eventType: fc.constantFrom(...BUILD_EVENTS, undefined),
    pullRequest: fc.boolean(),
    authorName: fc.constantFrom('Grace', 'dependabot[bot]', 'renovate-bot', null),
    authorEmail: fc.constantFrom('grace@example.com', null),
    committerName: fc.constantFrom('Grace', 'GitHub'),
  });
  const previousArb = fc.constantFrom(...FINISHED, undefined);

  it('never posts what a filter rules out, whatever the combination (property)', () => {
    fc.assert(
      fc.property(filtersArb, buildArb, previousArb, (filters, b, previous) => {
        const decision = shouldNotify(filters, b, previous);
        assert.equal(typeof decision.reason, 'string');
        if (!decision.post) return;
        if (filters.branches) assert.ok(filters.branches.some((g) => globMatches(g, b.branch ?? '')));
        if (filters.events) assert.ok(filters.events.some((e) => e === buildEventOf(b)));
        if (filters.only) assert.ok(FINISHED.some((s) => s === b.state));
        if (filters.only === 'failures') assert.ok(b.state === 'failed' || b.state === 'errored');
        if (filters.only === 'changes') assert.ok(classifyChange(b.state, previous) !== undefined);
        if (RUNNING.some((s) => s === b.state)) assert.ok(announcesStart(filters));
        for (const who of [b.authorName, b.authorEmail, b.committerName]) {
          if (!who) continue;
          assert.ok(!(filters.excludeAuthors ?? []).some((g) => globMatches(g, who, { ignoreCase: true })));
        }
      }),
    );
  });

  it('posts a finished build that every filter lets through (property)', () => {
    fc.assert(
      fc.property(buildArb, previousArb, (b, previous) => {
        const finished = FINISHED.some((s) => s === b.state);
        assert.equal(shouldNotify({}, b, previous).post, finished);
        // Adding filters can only take notifications away.
        const narrowed = shouldNotify({ branches: ['main'], only: 'failures' }, b, previous);
        if (narrowed.post) assert.ok(shouldNotify({}, b, previous).post);
      }),
    );
  });
});
