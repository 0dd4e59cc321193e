import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  type Build,
  type BuildRequest,
  buildSchema,
  type Cache,
  type Commit,
  commitSchema,
  type Job,
  jobSchema,
  type Repository,
} from '../../src/ci/schemas.js';
import { buildCardBlocks } from '../../src/slack/views/build-card.js';
import type { Site } from '../../src/slack/views/site.js';
import { fixture } from '../fakes/ci/fixtures.js';

/** Data for the pure view builder tests: one site, made-up lists, and the real rails build. */

export const SITE: Site = { deployment: 'com', label: 'travis-ci.com', webUrl: 'https://app.travis-ci.com' };

/** An hour after the made-up repositories, builds, requests and caches below last changed. */
export const NOW = new Date('2024-06-01T12:00:00Z');

export function repository(overrides: Partial<Repository> = {}): Repository {
  return {
    id: 891,
    slug: 'rails/rails',
    description: 'Ruby on Rails',
    last_build_id: 4125095,
    last_build_number: '6180',
    last_build_state: 'failed',
    last_build_duration: 5019,
    last_build_started_at: '2024-06-01T10:00:00Z',
    last_build_finished_at: '2024-06-01T11:00:00Z',
    active: true,
    ...overrides,
  };
}

export function build(i: number, overrides: Partial<Build> = {}): Build {
  return {
    id: 1000 + i,
    repository_id: 891,
    commit_id: 2000 + i,
    number: String(100 + i),
    pull_request_number: undefined,
    state: 'passed',
    started_at: '2024-06-01T10:00:00Z',
    finished_at: '2024-06-01T10:10:00Z',
    duration: 600,
    job_ids: [],
    ...overrides,
  };
}

export function commit(i: number, overrides: Partial<Commit> = {}): Commit {
  return {
    id: 2000 + i,
    sha: `${i}`.padStart(40, 'a'),
    branch: `branch-${i}`,
    message: `Commit ${i}`,
    ...overrides,
  };
}

export function request(i: number, overrides: Partial<BuildRequest> = {}): BuildRequest {
  return {
    id: 3000 + i,
    repository_id: 891,
    commit_id: 2000 + i,
    created_at: '2024-06-01T11:00:00Z',
    event_type: 'push',
    result: 'accepted',
    branch: `branch-${i}`,
    ...overrides,
  };
}

export function cache(i: number, overrides: Partial<Cache> = {}): Cache {
  return {
    repository_id: 891,
    size: 1024 * 1024 * (i + 1),
    slug: `cache--rvm-${i}--gemfile-Gemfile`,
    branch: 'main',
    last_modified: '2024-06-01T11:00:00Z',
    ...overrides,
  };
}

/** Two hours after the rails build of `railsBuild()` started. */
export const RAILS_BUILD_NOW = new Date('2013-01-13T17:55:17Z');

const buildBody = z.object({ build: buildSchema, commit: commitSchema, jobs: z.array(jobSchema) });

/** A real build with its commit and jobs, from the fixtures. */
export function railsBuild(): { build: Build; commit: Commit; jobs: Job[] } {
  return buildBody.parse(fixture('travisrb_v2_build_4125095_with_jobs.json'));
}

/** The build card of a build of rails/rails (`railsBuild()`, or variants of it) at RAILS_BUILD_NOW. */
export function railsBuildCard(parts: { build: Build; commit: Commit; jobs: Job[] }) {
  return buildCardBlocks({ site: SITE, slug: 'rails/rails', ...parts, now: RAILS_BUILD_NOW });
}

/** `count` jobs cloned from the rails build's first one, numbered 1…count, in the given states. */
export function manyJobs(build: Build, count: number, stateOf: (n: number) => string): Job[] {
  const [template] = railsBuild().jobs;
  assert.ok(template);
  return Array.from({ length: count }, (_, i) => ({
    ...template,
    id: 90_000_000 + i,
    build_id: build.id,
    number: `${build.number}.${i + 1}`,
    state: stateOf(i + 1),
    config: { ...template.config, env: `SHARD=${i + 1} GEM=railties` },
  }));
}

/** The item at `index`, failing the test when there is none. */
export function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  assert.ok(item !== undefined, `no item ${index}`);
  return item;
}
