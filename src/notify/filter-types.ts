import { z } from 'zod';

/**
 * The filters of a channel subscription, as `/ci subscribe` reads them and the store keeps them.
 * Neutral ground: the Slack parser, the store and the notifier all use these types.
 */

export const BUILD_EVENTS = ['push', 'pull_request', 'cron', 'api'] as const;
export type BuildEvent = (typeof BUILD_EVENTS)[number];

export interface SubscriptionFilters {
  /** Branch globs (`*` matches any run of characters, `/` included); no filter when absent. */
  branches?: string[];
  events?: BuildEvent[];
  /** `failures`: failed and errored builds; `changes`: broken, fixed and still failing. */
  only?: 'failures' | 'changes';
  /** Author globs (name or e-mail, case-insensitive) whose builds are not announced. */
  excludeAuthors?: string[];
  /** false for `threads:off` (everything in the channel); absent means threads are used. */
  threads?: boolean;
  /** true for `started:on` (announce builds when they start); absent means off. */
  started?: boolean;
}

const glob = z.string().min(1).max(255);

/** Validates filters read back from storage. */
export const subscriptionFiltersSchema = z.object({
  branches: z.array(glob).min(1).optional(),
  events: z.array(z.enum(BUILD_EVENTS)).min(1).optional(),
  only: z.enum(['failures', 'changes']).optional(),
  excludeAuthors: z.array(glob).min(1).optional(),
  threads: z.boolean().optional(),
  started: z.boolean().optional(),
}) satisfies z.ZodType<SubscriptionFilters>;
