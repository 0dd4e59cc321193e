import { createHash } from 'node:crypto';
import { z } from 'zod';
import { DEPLOYMENTS, type Deployment } from '../config.js';
import { parseJsonOrUndefined } from '../json.js';
import { type SubscriptionFilters, subscriptionFiltersSchema } from '../notify/filter-types.js';

/** The shapes of `Subscriptions`: public types, what Redis holds (validated with zod), key names. */

/** A repository an owner subscription covers. */
export interface CoveredRepo {
  id: number;
  slug: string;
}

export type SubscriptionTarget =
  | { kind: 'repo'; repoId: number; slug: string }
  /** `owner/*`: every repository of the owner the subscriber could see, as last listed. */
  | { kind: 'owner'; owner: string; repos: CoveredRepo[] };

/** What tells two targets apart within one channel and deployment (slugs and lists aside). */
export type TargetKey = { kind: 'repo'; repoId: number } | { kind: 'owner'; owner: string };

export interface Subscription {
  /** Stable: a hash of team, channel, deployment and target, so subscribing again finds it. */
  id: string;
  teamId: string;
  channelId: string;
  deployment: Deployment;
  target: SubscriptionTarget;
  filters: SubscriptionFilters;
  /** The Slack user whose linked token watches the repositories. */
  createdBy: string;
  /** ISO 8601; the time of the latest subscribe. */
  createdAt: string;
  status: 'active' | 'paused';
  /** Set when paused, e.g. `token_rejected`. */
  pausedReason?: string;
  pausedAt?: string;
}

export interface SubscriptionInput {
  teamId: string;
  channelId: string;
  deployment: Deployment;
  target: SubscriptionTarget;
  filters: SubscriptionFilters;
  createdBy: string;
}

export interface UpsertResult {
  subscription: Subscription;
  /** The subscription this one replaced (same channel, deployment and target), if any. */
  previous?: Subscription;
}

/** Slack ids are short alphanumeric strings; refusing ':' keeps keys apart. */
export const slackId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const repoId = z.number().int().positive();
const slug = z.string().min(3).max(300);
const owner = z.string().min(1).max(100);
export const coveredRepo = z.object({ id: repoId, slug });

export const subscriptionInput = z.object({
  teamId: slackId,
  channelId: slackId,
  deployment: z.enum(DEPLOYMENTS),
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('repo'), repoId, slug }),
    z.object({ kind: z.literal('owner'), owner, repos: z.array(coveredRepo) }),
  ]),
  filters: subscriptionFiltersSchema,
  createdBy: slackId,
});

/**
 * What `sub:{id}` holds. An owner subscription's repositories and a pause live in keys of their own
 * named after `activation` (a random token each subscribe draws), so a periodic refresh or a pause
 * racing a new subscribe writes to the old activation and cannot undo it.
 */
export const storedRecord = z.object({
  v: z.literal(1),
  id: z.string(),
  teamId: slackId,
  channelId: slackId,
  deployment: z.enum(DEPLOYMENTS),
  target: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('repo'), repoId, slug }),
    z.object({ kind: z.literal('owner'), owner }),
  ]),
  filters: subscriptionFiltersSchema,
  createdBy: slackId,
  createdAt: z.iso.datetime(),
  activation: z.string().min(1),
});
export type StoredRecord = z.infer<typeof storedRecord>;

export const pauseRecord = z.object({ reason: z.string().max(200), at: z.iso.datetime() });

export const recordKey = (id: string) => `sub:${id}`;
export const coveredKey = (id: string, activation: string) => `sub-repos:${id}:${activation}`;
export const pausedKey = (id: string, activation: string) => `sub-paused:${id}:${activation}`;
export const channelKey = (teamId: string, channelId: string) => `subs-channel:${teamId}:${channelId}`;
export const creatorKey = (teamId: string, userId: string) => `subs-creator:${teamId}:${userId}`;
export const deploymentKey = (deployment: Deployment) => `subs-deployment:${deployment}`;
export const repoKey = (deployment: Deployment, id: number) => `subs-repo:${deployment}:${id}`;

/** How many keys one MGET reads. */
export const MGET_BATCH = 500;

export function targetKeyOf(target: SubscriptionTarget | TargetKey): TargetKey {
  return target.kind === 'repo'
    ? { kind: 'repo', repoId: target.repoId }
    : { kind: 'owner', owner: target.owner };
}

/** The id of the subscription of a channel to a target (owners compared without case, as GitHub does). */
export function subscriptionId(
  teamId: string,
  channelId: string,
  deployment: Deployment,
  target: TargetKey,
): string {
  const what = target.kind === 'repo' ? `repo:${target.repoId}` : `owner:${target.owner.toLowerCase()}`;
  const digest = createHash('sha256').update(`${teamId}\n${channelId}\n${deployment}\n${what}`).digest();
  return `s${digest.subarray(0, 15).toString('base64url')}`;
}

/** The repository ids a subscription covers. */
export function coveredRepoIds(sub: Subscription): number[] {
  return sub.target.kind === 'repo' ? [sub.target.repoId] : sub.target.repos.map((r) => r.id);
}

export function parseRecord(raw: string | null, id: string | undefined): StoredRecord | undefined {
  if (raw === null) return undefined;
  const result = storedRecord.safeParse(parseJsonOrUndefined(raw));
  // A record copied under another id is not trusted.
  return result.success && result.data.id === id ? result.data : undefined;
}

export function parsePause(raw: string | null): z.infer<typeof pauseRecord> | undefined {
  if (raw === null) return undefined;
  const result = pauseRecord.safeParse(parseJsonOrUndefined(raw));
  // A pause marker that does not parse still pauses: it was written by pause().
  return result.success ? result.data : { reason: 'unknown', at: new Date(0).toISOString() };
}

export function assertSlackIds(...ids: string[]): void {
  if (!ids.every((id) => slackId.safeParse(id).success))
    throw new RangeError('Not a Slack team, channel or user id');
}
