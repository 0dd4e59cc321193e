import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { type Build, buildSchema } from '../../src/ci/schemas.js';
import {
  attemptOf,
  type BuildProgress,
  type BuildSnapshot,
  historyOriginOf,
  isStale,
  snapshotOf,
} from '../../src/notify/snapshot.js';
import { channelTargets } from '../../src/notify/targets.js';
import type { Subscription } from '../../src/store/subscriptions.js';
import { railsBuild } from '../helpers/view-data.js';

const at = (state: string, started: string | null, finished: string | null): BuildProgress => ({
  state,
  started_at: started,
  finished_at: finished,
});

const T1 = '2030-01-01T10:00:00Z';
const T2 = '2030-01-01T10:05:00Z';
const T3 = '2030-01-01T11:00:00Z';
const T4 = '2030-01-01T11:05:00Z';

describe('isStale: which of two updates of a build is older', () => {
  it('orders the states of one attempt: created → started → finished', () => {
    assert.equal(isStale(at('started', T1, null), at('created', null, null)), true);
    assert.equal(isStale(at('failed', T1, T2), at('started', T1, null)), true);
    assert.equal(isStale(at('started', T1, null), at('failed', T1, T2)), false);
    assert.equal(isStale(at('created', null, null), at('started', T1, null)), false);
  });

  it('takes a restart for news: waiting again after the end, or a start after the end', () => {
    assert.equal(isStale(at('failed', T1, T2), at('created', null, null)), false);
    assert.equal(isStale(at('failed', T1, T2), at('started', T3, null)), false);
    assert.equal(isStale(at('failed', T1, T2), at('passed', T3, T4)), false);
  });

  it('finds the end of an earlier attempt old once a new one runs or ended', () => {
    assert.equal(isStale(at('started', T3, null), at('failed', T1, T2)), true);
    assert.equal(isStale(at('passed', T3, T4), at('failed', T1, T2)), true);
  });

  it('treats a start at the very second of the end as the same attempt (never replaces the end)', () => {
    assert.equal(isStale(at('passed', T1, T1), at('started', T1, null)), true);
  });

  it('accepts the same state again (a repeated update, job states moving) and updates without times', () => {
    assert.equal(isStale(at('started', T1, null), at('started', T1, null)), false);
    assert.equal(isStale(at('failed', T1, T2), at('failed', T1, T2)), false);
    assert.equal(isStale(at('failed', null, null), at('failed', null, null)), false);
  });
});

describe('snapshots of build updates', () => {
  const { build, commit, jobs } = railsBuild();
  const update = {
    deployment: 'com' as const,
    repo: { id: 891, slug: 'rails/rails' },
    build,
    commit,
    jobs,
    source: 'poll' as const,
  };

  it('drops the build configuration and long job configuration values, keeping what messages show', () => {
    const big = { ...build, config: { script: 'x'.repeat(10_000) } };
    const longJobs = jobs.map((job) => ({
      ...job,
      config: { ...job.config, before_install: 'y'.repeat(1_000) },
    }));
    const snapshot = snapshotOf({ ...update, build: big, jobs: longJobs });
    assert.equal(snapshot.build.config, undefined);
    assert.equal(snapshot.jobs[0]?.config?.before_install, undefined);
    assert.equal(snapshot.jobs[0]?.config?.rvm, jobs[0]?.config?.rvm);
    assert.ok(
      JSON.stringify(snapshot).length < JSON.stringify({ ...update, build: big, jobs: longJobs }).length / 2,
    );
  });

  it('continues the history of its branch, or of its pull request', () => {
    const snapshot = snapshotOf(update);
    assert.equal(historyOriginOf(snapshot), 'branch:master');
    const pr: Build = buildSchema.parse({ ...build, event_type: 'pull_request', pull_request_number: 12 });
    assert.equal(historyOriginOf({ ...snapshot, build: pr }), 'pr:12');
    assert.equal(historyOriginOf({ ...snapshot, commit: undefined }), undefined);
  });

  it('names an attempt by when it ended', () => {
    assert.equal(attemptOf({ ...build, started_at: T1, finished_at: T2 }), T2);
    assert.equal(attemptOf({ ...build, started_at: T1, finished_at: null }), T1);
    assert.equal(attemptOf({ ...build, started_at: null, finished_at: null }), 'unknown');
  });
});

describe('channelTargets', () => {
  const { build, commit, jobs } = railsBuild();
  const snapshot: BuildSnapshot = snapshotOf({
    deployment: 'com',
    repo: { id: 891, slug: 'rails/rails' },
    build,
    commit,
    jobs,
    source: 'poll',
  });
  const sub = (id: string, channelId: string, over: Partial<Subscription>): Subscription => ({
    id,
    teamId: 'T1',
    channelId,
    deployment: 'com',
    target: { kind: 'repo', repoId: 891, slug: 'rails/rails' },
    filters: {},
    createdBy: 'U1',
    createdAt: T1,
    status: 'active',
    ...over,
  });

  it('gives each channel one target, decided by its repository subscription first', () => {
    const owner = sub('s2', 'C1', {
      target: { kind: 'owner', owner: 'rails', repos: [{ id: 891, slug: 'rails/rails' }] },
      filters: { threads: false },
      createdBy: 'U2',
    });
    const repo = sub('s1', 'C1', { filters: { only: 'failures' } });
    const other = sub('s3', 'C2', { filters: { branches: ['main'] } });
    const targets = channelTargets(snapshot, [owner, repo, other]);
    assert.equal(targets.length, 2);
    const [c1, c2] = targets;
    assert.equal(c1?.post, true);
    assert.equal(c1?.placement, 'thread', 'the repository subscription decides');
    assert.equal(c1?.readerUserId, 'U1');
    assert.deepEqual(
      c1?.subscriptions.map((s) => s.id),
      ['s1', 's2'],
    );
    assert.equal(c2?.post, false, 'master is not main');
  });

  it('falls back to another subscription of the channel that would post', () => {
    const passed = { ...snapshot, build: { ...snapshot.build, state: 'passed' } };
    const repo = sub('s1', 'C1', { filters: { only: 'failures' } });
    const owner = sub('s2', 'C1', {
      target: { kind: 'owner', owner: 'rails', repos: [{ id: 891, slug: 'rails/rails' }] },
      filters: { threads: false },
      createdBy: 'U2',
    });
    const [target] = channelTargets(passed, [repo, owner]);
    assert.equal(target?.post, true);
    assert.equal(target?.placement, 'channel');
    assert.equal(target?.readerUserId, 'U2');
  });
});
