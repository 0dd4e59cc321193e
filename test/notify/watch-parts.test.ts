import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import type { Build, Job } from '../../src/ci/schemas.js';
import { buildSchema, jobSchema } from '../../src/ci/schemas.js';
import { createLogger } from '../../src/log.js';
import { createMetrics } from '../../src/metrics.js';
import type { BuildUpdate } from '../../src/notify/types.js';
import { ChangeDetector } from '../../src/notify/watch/change-detector.js';
import { LeaseBalancer, shareOf } from '../../src/notify/watch/lease-balancer.js';
import { pauseNoticeText } from '../../src/notify/watch/pause-notice.js';
import { Presence } from '../../src/notify/watch/presence.js';
import { readBuildEvent } from '../../src/notify/watch/realtime-events.js';
import { buildSignature } from '../../src/notify/watch/signature.js';
import { Leases } from '../../src/store/leases.js';
import { MemoryKv } from '../../src/store/memory-kv.js';
import type { Subscription } from '../../src/store/subscriptions.js';

const NOW = Date.parse('2030-01-01T12:00:00Z');

function build(patch: Partial<Record<string, unknown>> = {}): Build {
  return buildSchema.parse({
    id: 10,
    repository_id: 5,
    number: '3',
    state: 'started',
    started_at: '2030-01-01T11:59:00Z',
    finished_at: null,
    job_ids: [11, 12],
    ...patch,
  });
}

function job(id: number, state: string, patch: Partial<Record<string, unknown>> = {}): Job {
  return jobSchema.parse({ id, build_id: 10, repository_id: 5, number: `3.${id - 10}`, state, ...patch });
}

function update(b: Build, jobs: Job[], source: 'poll' | 'realtime' = 'poll'): BuildUpdate {
  return { deployment: 'com', repo: { id: 5, slug: 'o/r' }, build: b, commit: undefined, jobs, source };
}

function detector(kv: MemoryKv, handled: BuildUpdate[], options: { failing?: () => boolean } = {}) {
  return new ChangeDetector({
    kv,
    sink: {
      async handle(u) {
        if (options.failing?.()) throw new Error('Slack is down');
        handled.push(u);
      },
    },
    logger: createLogger('silent'),
    metrics: createMetrics(),
    seenTtlMs: 60_000,
    onceTtlMs: 60_000,
    announceWindowMs: 30_000,
    now: () => NOW,
  });
}

describe('build signatures', () => {
  it('agree across timestamp formats and differ when a state or a restart moves', () => {
    const jobs = [job(11, 'started'), job(12, 'created')];
    const a = buildSignature(build(), jobs);
    assert.equal(
      buildSignature(build({ started_at: '2030-01-01T11:59:00.000+00:00' }), [...jobs].reverse()),
      a,
    );
    assert.notEqual(buildSignature(build(), [job(11, 'passed'), job(12, 'created')]), a);
    assert.notEqual(buildSignature(build({ state: 'passed' }), jobs), a);
    const done = build({ state: 'passed', finished_at: '2030-01-01T12:00:00Z' });
    const restartedAndDoneAgain = build({ state: 'passed', finished_at: '2030-01-01T12:05:00Z' });
    assert.notEqual(buildSignature(restartedAndDoneAgain, jobs), buildSignature(done, jobs));
  });
});

describe('ChangeDetector', () => {
  it('keeps the history of a newly watched repository quiet, but not unfinished or just finished builds', () => {
    const d = detector(new MemoryKv({ now: () => NOW }), []);
    const oldDone = build({ state: 'failed', finished_at: '2030-01-01T10:00:00Z' });
    const noEnd = build({ state: 'failed', finished_at: null });
    const justDone = build({ state: 'passed', finished_at: '2030-01-01T11:59:50Z' });
    assert.equal(d.isHistory(oldDone, undefined), true);
    assert.equal(d.isHistory(noEnd, undefined), true, 'an unknown end counts as old');
    assert.equal(d.isHistory(justDone, undefined), false);
    assert.equal(d.isHistory(build(), undefined), false, 'unfinished');
    assert.equal(d.isHistory(oldDone, { maxBuildId: 9, open: [] }), false, 'newer than anything handled');
    assert.equal(d.isHistory(oldDone, { maxBuildId: 10, open: [] }), true);
  });

  it('emits each change once, across processes, and ignores a sighting older than the last one', async () => {
    const kv = new MemoryKv({ now: () => NOW });
    const handledA: BuildUpdate[] = [];
    const handledB: BuildUpdate[] = [];
    const a = detector(kv, handledA);
    const b = detector(kv, handledB);
    const started = update(build(), [job(11, 'started'), job(12, 'created')]);
    const offer = { update: started, observedAt: 1, repoState: undefined };
    assert.deepEqual(await Promise.all([a.offer(offer), b.offer(offer)]).then((r) => r.sort()), [
      'claimed_elsewhere',
      'emitted',
    ]);
    assert.equal(await a.offer({ ...offer, observedAt: 2 }), 'unchanged');
    assert.equal(await b.offer({ ...offer, observedAt: 2 }), 'unchanged');
    assert.equal(handledA.length + handledB.length, 1);

    const passed = update(
      build({ state: 'passed', finished_at: '2030-01-01T11:59:59Z' }),
      [job(11, 'passed'), job(12, 'passed')],
      'realtime',
    );
    assert.equal(await a.offer({ update: passed, observedAt: 10, repoState: undefined }), 'emitted');
    assert.equal(await a.offer({ ...offer, observedAt: 5 }), 'stale', 'a slow poll does not undo it');
    assert.equal(a.lastKnown('com', 10), undefined, 'a finished build is not kept in memory');
  });

  it('gives the claim back when the sink fails, so the next round delivers the change', async () => {
    const kv = new MemoryKv({ now: () => NOW });
    const handled: BuildUpdate[] = [];
    let failing = true;
    const d = detector(kv, handled, { failing: () => failing });
    const offer = { update: update(build(), [job(11, 'started')]), observedAt: 1, repoState: undefined };
    await assert.rejects(d.offer(offer), /Slack is down/);
    failing = false;
    assert.equal(await d.offer({ ...offer, observedAt: 2 }), 'emitted');
    assert.equal(handled.length, 1);
  });
});

describe('LeaseBalancer', () => {
  it('computes the same split in every process', () => {
    const live = ['p1', 'p2', 'p3'];
    assert.deepEqual(
      live.map((id) => shareOf(2_000, live, id)),
      [667, 667, 666],
    );
    assert.deepEqual(
      live.map((id) => shareOf(20, live, id)),
      [7, 7, 6],
    );
    assert.equal(shareOf(20, ['p1', 'p2'], 'p2'), 10);
    assert.equal(shareOf(5, [], 'p1'), 5, 'alone when it does not see itself yet');
  });

  it('splits units fairly, releases its surplus when others come, and takes over what a dead process held', async () => {
    let now = NOW;
    const kv = new MemoryKv({ now: () => now });
    const ttl = 1_000;
    const make = (id: string) =>
      new LeaseBalancer({
        leases: new Leases(kv, id),
        presence: new Presence(kv, id, ttl),
        processId: id,
        ttlMs: ttl,
        now: () => now,
      });
    const units = Array.from({ length: 10 }, (_, i) => `com:${i}`);
    const [a, b, c] = [make('a'), make('b'), make('c')];
    assert.equal((await a.balance(units)).held, 10, 'alone, it takes everything');
    await b.balance(units);
    await c.balance(units);
    for (let round = 0; round < 3; round++) for (const p of [a, b, c]) await p.balance(units);
    assert.deepEqual(
      [a, b, c].map((p) => p.held.length),
      [4, 3, 3],
      'the remainder goes to the first id',
    );
    assert.equal(new Set([...a.held, ...b.held, ...c.held]).size, 10, 'each unit held once');

    now += ttl + 1; // c dies: no more rounds from it
    for (let round = 0; round < 2; round++) for (const p of [a, b]) await p.balance(units);
    assert.deepEqual([a.held.length, b.held.length], [5, 5]);
    assert.equal(c.holds(c.held[0] ?? 'com:0'), false, 'an unrenewed lease counts as lost');

    const result = await a.balance(units.slice(0, 4));
    assert.ok(result.released.length > 0, 'units nobody watches any more are given up');
    assert.ok(a.held.every((unit) => units.slice(0, 4).includes(unit)));
  });
});

describe('realtime payloads', () => {
  it('reads build and job events and their stubs, and nothing else', () => {
    const full = readBuildEvent('build:started', { build: build(), commit: null, repository: { id: 5 } });
    assert.equal(full?.kind, 'build');
    assert.deepEqual(readBuildEvent('build:finished', { build: { id: 100 }, _no_full_payload: true }), {
      kind: 'stub',
      buildId: 100,
    });
    assert.deepEqual(
      readBuildEvent('job:started', { id: 430969, build_id: 430967, _no_full_payload: true }),
      {
        kind: 'stub',
        buildId: 430967,
      },
    );
    assert.equal(readBuildEvent('job:finished', job(11, 'passed'))?.kind, 'job');
    assert.equal(readBuildEvent('job:log', { id: 1, _log: 'x', number: 1 }), undefined);
    assert.equal(readBuildEvent('build:started', { build: { id: 'x' } }), undefined);
  });
});

describe('pause notice', () => {
  const sub = (target: Subscription['target']): Subscription => ({
    id: 's1',
    teamId: 'T1',
    channelId: 'C1',
    deployment: 'com',
    target,
    filters: {},
    createdBy: 'U1',
    createdAt: '2030-01-01T00:00:00.000Z',
    status: 'active',
  });

  it('says why, names the creator and how to subscribe again, with outside text escaped', () => {
    const repo = sub({ kind: 'repo', repoId: 1, slug: 'o/<!channel>' });
    assert.equal(
      pauseNoticeText(repo, 'token_rejected', 'travis-ci.com'),
      "I paused the subscription to o/&lt;!channel&gt;: <@U1>'s travis-ci.com token no longer works. Anyone with access can `/ci subscribe o/&lt;!channel&gt;` again.",
    );
    const owner = sub({ kind: 'owner', owner: 'rails', repos: [] });
    assert.match(
      pauseNoticeText(owner, 'no_access', 'travis-ci.com'),
      /to rails\/\*: <@U1>'s travis-ci.com account can no longer see it\./,
    );
    assert.match(
      pauseNoticeText(owner, 'not_linked', 'travis-ci.com'),
      /<@U1> no longer has a linked travis-ci.com account\./,
    );
  });
});
