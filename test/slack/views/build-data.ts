import assert from 'node:assert/strict';
import { z } from 'zod';
import {
  type Build,
  buildSchema,
  type Commit,
  commitSchema,
  type Job,
  jobSchema,
} from '../../../src/ci/schemas.js';
import type { Block } from '../../../src/slack/reply.js';
import type { Site } from '../../../src/slack/views/build-format.js';
import { fixture } from '../../fakes/ci/fixtures.js';
import { BLOCK_LIMITS, blocksTextLength, checkBlocks } from '../../fakes/slack/block-kit.js';

/** Build, job and commit values for view tests, from the real fixtures, and a Slack-limits check. */

export const SITE: Site = { deployment: 'com', label: 'travis-ci.com', webUrl: 'https://app.travis-ci.com' };
/** Two hours after the fixture build started. */
export const NOW = new Date('2013-01-13T17:55:17Z');

const buildBody = z.object({ build: buildSchema, commit: commitSchema, jobs: z.array(jobSchema) });

export function railsBuild(): { build: Build; commit: Commit; jobs: Job[] } {
  return buildBody.parse(fixture('travisrb_v2_build_4125095_with_jobs.json'));
}

/** `count` jobs cloned from the fixture's first one, numbered 1…count, in the given states. */
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

/** What the fake Slack would refuse in a message's blocks, plus the totals. */
export function assertFitsMessage(blocks: Block[] | undefined): void {
  assert.ok(blocks, 'the message has blocks');
  assert.deepEqual(checkBlocks(blocks, 'message', '/blocks'), []);
  assert.ok(blocks.length <= BLOCK_LIMITS.messageBlocks, `${blocks.length} blocks`);
  const text = blocksTextLength(blocks);
  assert.ok(text <= BLOCK_LIMITS.messageBlocksText, `${text} characters of block text`);
}

/** Every action_id of a message's interactive elements. */
export function actionIds(blocks: Block[] | undefined): string[] {
  const ids: string[] = [];
  for (const block of blocks ?? []) {
    if (block.type === 'actions')
      for (const e of block.elements) if ('action_id' in e && e.action_id) ids.push(e.action_id);
    if (
      block.type === 'section' &&
      block.accessory &&
      'action_id' in block.accessory &&
      block.accessory.action_id
    ) {
      ids.push(block.accessory.action_id);
    }
  }
  return ids;
}

/** The item at `index`, failing the test when there is none. */
export function nth<T>(list: readonly T[], index: number): T {
  const item = list[index];
  assert.ok(item !== undefined, `no item ${index}`);
  return item;
}

/** Every mrkdwn text of some blocks (where Slack reads mentions and formatting), one per line. */
export function mrkdwnTexts(value: unknown): string {
  const found: string[] = [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      const record = v as Record<string, unknown>;
      if (record.type === 'mrkdwn' && typeof record.text === 'string') found.push(record.text);
      Object.values(record).forEach(walk);
    }
  };
  walk(value);
  return found.join('\n');
}
