import type { Build, BuildRequest, Cache, Commit, Repository } from '../../../src/ci/schemas.js';
import { blocksTextLength, checkBlocks, checkView } from '../../fakes/slack/block-kit.js';

/** Data and checks for the pure view builder tests: Slack's limits as the fake Slack enforces them. */

export const PLACE = {
  deployment: 'com' as const,
  label: 'travis-ci.com',
  webUrl: 'https://app.travis-ci.com',
  now: new Date('2024-06-01T12:00:00Z'),
};

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

/** Problems Slack would report for a message's blocks, including the total text limit. */
export function messageProblems(blocks: unknown): string[] {
  const problems = checkBlocks(blocks, 'message', '/blocks').map((p) => `${p.pointer}: ${p.message}`);
  if (blocksTextLength(blocks) > 12_000) problems.push('msg_blocks_too_long');
  return problems;
}

export function viewProblems(view: unknown): string[] {
  return checkView(view, 'modal').map((p) => `${p.pointer}: ${p.message}`);
}
