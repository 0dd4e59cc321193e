import type { Cache, Repository } from '../../ci/schemas.js';
import type { Deployment } from '../../config.js';
import { type CacheFilter, totalBytes } from '../../ops/caches.js';
import { ACTIONS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, singleLine } from '../text/escape.js';
import { plural, timeAgo } from '../text/format.js';
import { truncate } from '../text/truncate.js';
import { actions, type Button, button, header, section } from './blocks.js';
import { listBlocks } from './lines.js';
import { repoLink } from './repos.js';

/** Cache list, the delete prompt with its confirmation dialog, and the announcement of a deletion. */

export interface CachePlace {
  deployment: Deployment;
  webUrl: string;
  now: Date;
  quiet?: boolean;
}

const UNITS = ['KB', 'MB', 'GB', 'TB'];

/** 18874368 → "18 MB", 1536 → "1.5 KB" (powers of 1,024). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes;
  let unit = 'B';
  for (const next of UNITS) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)} ${unit}`;
}

/** " on branch `main` whose names contain `node`": the filter as words, escaped. */
export function filterWords(filter: CacheFilter): string {
  const branch = filter.branch ? ` on branch ${inlineCode(truncate(filter.branch, 100))}` : '';
  const match = filter.match ? ` whose names contain ${inlineCode(truncate(filter.match, 100))}` : '';
  return `${branch}${match}`;
}

export function cachesMessage(
  repo: Repository,
  caches: Cache[],
  bytes: number,
  filter: CacheFilter,
  place: CachePlace,
): SlackMessage {
  const title = `Caches of ${repo.slug}`;
  const summary = `${plural(caches.length, 'cache')}${filterWords(filter)}, ${formatBytes(bytes)} in all.`;
  const blocks: Block[] = [header(title)];
  if (caches.length === 0) {
    blocks.push(section(`${repoLink(place, repo.slug)} has no caches${filterWords(filter)}.`));
    return { text: escapeMrkdwn(`${title}: none`), blocks };
  }
  blocks.push(section(summary));
  blocks.push(
    ...listBlocks(caches, (c) => cacheLine(c, place.now), {
      maxItems: 100,
      maxChars: 9_000,
      noun: 'caches',
    }),
  );
  blocks.push(...actions([deleteButton(repo, caches, bytes, filter, place, 'Delete these caches')]));
  return { text: escapeMrkdwn(`${title}: ${caches.length}, ${formatBytes(bytes)}`), blocks };
}

function cacheLine(cache: Cache, now: Date): string {
  const branch = escapeMrkdwn(truncate(singleLine(cache.branch), 100));
  const when = cache.last_modified ? ` · ${timeAgo(cache.last_modified, now)}` : '';
  return `• ${inlineCode(truncate(cache.slug, 150))} on *${branch}* · ${formatBytes(cache.size)}${when}`;
}

/** `caches … delete`: what would go, with a Delete button whose dialog repeats the filter and the count. */
export function cachesDeletePrompt(
  repo: Repository,
  caches: Cache[],
  bytes: number,
  filter: CacheFilter,
  place: CachePlace,
): SlackMessage {
  if (caches.length === 0) {
    return { text: `${repoLink(place, repo.slug)} has no caches${filterWords(filter)}: nothing to delete.` };
  }
  const what = `${plural(caches.length, 'cache')} (${formatBytes(bytes)})`;
  return {
    text: escapeMrkdwn(`Delete ${caches.length} caches of ${repo.slug}?`),
    blocks: [
      section(
        `Delete ${what} of ${repoLink(place, repo.slug)}${filterWords(filter)}? The next builds will rebuild them, and may take longer.`,
      ),
      ...actions([deleteButton(repo, caches, bytes, filter, place, 'Delete')]),
    ],
  };
}

function deleteButton(
  repo: Repository,
  caches: Cache[],
  bytes: number,
  filter: CacheFilter,
  place: CachePlace,
  label: string,
): Button | undefined {
  // What ACTIONS.deleteCaches can carry; longer values cannot come from the parser.
  if (repo.slug.length > 300 || (filter.branch?.length ?? 0) > 255 || (filter.match?.length ?? 0) > 255) {
    return undefined;
  }
  return button(
    ACTIONS.deleteCaches,
    label,
    {
      d: place.deployment,
      repo: repo.slug,
      ...(filter.branch ? { branch: filter.branch } : {}),
      ...(filter.match ? { match: filter.match } : {}),
      ...(place.quiet ? { q: true } : {}),
    },
    {
      style: 'danger',
      confirm: {
        title: 'Delete caches?',
        text: `This deletes ${plural(caches.length, 'cache')} (${formatBytes(bytes)}) of ${escapeMrkdwn(truncate(repo.slug, 80))}${filterWords(filter) || ' on every branch'}.`,
        confirm: 'Delete',
      },
    },
  );
}

export function cachesDeletedText(
  repoSlug: string,
  deleted: Cache[] | undefined,
  filter: CacheFilter,
  place: { webUrl: string },
): string {
  const what = deleted
    ? `${plural(deleted.length, 'cache')} (${formatBytes(totalBytes(deleted))})`
    : 'the caches';
  return `${what} of ${repoLink(place, repoSlug)}${filterWords(filter)}`;
}
