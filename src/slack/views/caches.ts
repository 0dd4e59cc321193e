import type { Cache } from '../../ci/schemas.js';
import { type CacheFilter, type CacheList, totalBytes } from '../../ops/caches.js';
import { ACTIONS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, mention, singleLine } from '../text/escape.js';
import { formatBytes, plural, timeAgo } from '../text/format.js';
import { truncate } from '../text/truncate.js';
import { actions, type Button, button, header, section } from './blocks.js';
import { listBlocks } from './lists.js';
import { repoLink, type Site } from './site.js';

/** Cache list, the delete prompt with its confirmation dialog, and the announcement of a deletion. */

/** " on branch `main` whose names contain `node`": the filter as words, escaped. */
export function filterWords(filter: CacheFilter): string {
  const branch = filter.branch ? ` on branch ${inlineCode(truncate(filter.branch, 100))}` : '';
  const match = filter.match ? ` whose names contain ${inlineCode(truncate(filter.match, 100))}` : '';
  return `${branch}${match}`;
}

export function cachesMessage(list: CacheList, filter: CacheFilter, site: Site, now: Date): SlackMessage {
  const { repo, caches, bytes } = list;
  const title = `Caches of ${repo.slug}`;
  const summary = `${plural(caches.length, 'cache')}${filterWords(filter)}, ${formatBytes(bytes)} in all.`;
  const blocks: Block[] = [header(title)];
  if (caches.length === 0) {
    blocks.push(section(`${repoLink(site, repo.slug)} has no caches${filterWords(filter)}.`));
    return { text: escapeMrkdwn(`${title}: none`), blocks };
  }
  blocks.push(section(summary));
  blocks.push(
    ...listBlocks(caches, (c) => cacheLine(c, now), {
      maxItems: 100,
      maxChars: 9_000,
      noun: 'caches',
    }),
  );
  blocks.push(...actions([deleteButton(list, filter, site, { quiet: false, label: 'Delete these caches' })]));
  return { text: escapeMrkdwn(`${title}: ${caches.length}, ${formatBytes(bytes)}`), blocks };
}

function cacheLine(cache: Cache, now: Date): string {
  const branch = escapeMrkdwn(truncate(singleLine(cache.branch), 100));
  const when = cache.last_modified ? ` · ${timeAgo(cache.last_modified, now)}` : '';
  return `• ${inlineCode(truncate(cache.slug, 150))} on *${branch}* · ${formatBytes(cache.size)}${when}`;
}

/** `caches … delete`: what would go, with a Delete button whose dialog repeats the filter and the count. */
export function cachesDeletePrompt(
  list: CacheList,
  filter: CacheFilter,
  site: Site,
  options: { quiet: boolean },
): SlackMessage {
  const { repo, caches, bytes } = list;
  if (caches.length === 0) {
    return { text: `${repoLink(site, repo.slug)} has no caches${filterWords(filter)}: nothing to delete.` };
  }
  const what = `${plural(caches.length, 'cache')} (${formatBytes(bytes)})`;
  return {
    text: escapeMrkdwn(`Delete ${caches.length} caches of ${repo.slug}?`),
    blocks: [
      section(
        `Delete ${what} of ${repoLink(site, repo.slug)}${filterWords(filter)}? The next builds will rebuild them, and may take longer.`,
      ),
      ...actions([deleteButton(list, filter, site, { quiet: options.quiet, label: 'Delete' })]),
    ],
  };
}

/** `quiet` (the command's --quiet) keeps the click's change out of the channel. */
function deleteButton(
  { repo, caches, bytes }: CacheList,
  filter: CacheFilter,
  site: Site,
  options: { quiet: boolean; label: string },
): Button | undefined {
  // What ACTIONS.deleteCaches can carry; longer values cannot come from the parser.
  if (repo.slug.length > 300 || (filter.branch?.length ?? 0) > 255 || (filter.match?.length ?? 0) > 255) {
    return undefined;
  }
  return button(
    ACTIONS.deleteCaches,
    options.label,
    {
      d: site.deployment,
      repo: repo.slug,
      ...(filter.branch ? { branch: filter.branch } : {}),
      ...(filter.match ? { match: filter.match } : {}),
      ...(options.quiet ? { q: true } : {}),
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

/** In the channel after the Delete click: "<@U1> deleted 2 caches (37 MB) of owner/name on branch `main`". */
export function cachesDeletedAnnouncement(
  userId: string,
  repoSlug: string,
  deleted: Cache[] | undefined,
  filter: CacheFilter,
  site: Site,
): SlackMessage {
  return { text: `${mention(userId)} deleted ${deletedText(repoSlug, deleted, filter, site)}` };
}

export function cachesDeletedConfirmation(
  repoSlug: string,
  deleted: Cache[] | undefined,
  filter: CacheFilter,
  site: Site,
): SlackMessage {
  return { text: `Deleted ${deletedText(repoSlug, deleted, filter, site)}.` };
}

/** `deleted` is undefined when the service did not say which caches went. */
function deletedText(
  repoSlug: string,
  deleted: Cache[] | undefined,
  filter: CacheFilter,
  site: Site,
): string {
  const what = deleted
    ? `${plural(deleted.length, 'cache')} (${formatBytes(totalBytes(deleted))})`
    : 'the caches';
  return `${what} of ${repoLink(site, repoSlug)}${filterWords(filter)}`;
}
