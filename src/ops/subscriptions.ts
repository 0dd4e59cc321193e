import type { CiSession } from '../ci/client.js';
import { listRepos } from '../ci/repos.js';
import type { Deployment } from '../config.js';
import type { SubscriptionFilters } from '../notify/filter-types.js';
import type { Services } from '../services.js';
import {
  type Subscription,
  type SubscriptionTarget,
  targetKeyOf,
  type UpsertResult,
} from '../store/subscriptions.js';
import { type Actor, openSession } from './actor.js';
import { UserFacingError } from './describe-error.js';
import type { RepoTarget } from './references.js';
import { resolveRepo } from './resolve.js';

/**
 * Channel subscriptions: subscribe a channel to a repository or to `owner/*` (checked with the
 * subscriber's own token, whose access the watcher later uses), unsubscribe, list.
 */

export interface SubscribeRequest {
  channelId: string;
  target: RepoTarget;
  filters: SubscriptionFilters;
}

export interface SubscribeResult extends UpsertResult {
  /** The subscriber's CI login on that deployment. */
  login: string;
}

export async function subscribeChannel(
  services: Services,
  actor: Actor,
  deployment: Deployment,
  request: SubscribeRequest,
): Promise<SubscribeResult> {
  const { session, account } = await openSession(services, actor, deployment);
  const target = await resolveTarget(session, request.target);
  const result = await services.subscriptions.upsert({
    teamId: actor.teamId,
    channelId: request.channelId,
    deployment,
    target,
    filters: request.filters,
    createdBy: actor.userId,
  });
  return { ...result, login: account.ciLogin };
}

/**
 * A repository must exist and be visible to the subscriber. `owner/*` covers the owner's
 * repositories the subscriber can see now (GET /repos?owner_name=); the watcher refreshes the list.
 */
async function resolveTarget(session: CiSession, target: RepoTarget): Promise<SubscriptionTarget> {
  if (target.kind === 'repo') {
    const repo = await resolveRepo(session, target.repo);
    return { kind: 'repo', repoId: repo.id, slug: repo.slug };
  }
  const owner = target.owner.toLowerCase();
  const repos = (await listRepos(session, { ownerName: target.owner })).filter(
    (repo) => repo.slug.split('/')[0]?.toLowerCase() === owner,
  );
  if (repos.length === 0) {
    throw new UserFacingError(
      `I found no repositories of ${target.owner} that your account can see, so there is nothing to subscribe to.`,
    );
  }
  return { kind: 'owner', owner: target.owner, repos: repos.map((r) => ({ id: r.id, slug: r.slug })) };
}

/**
 * Removes the channel's subscription to a target. Needs no CI call (a revoked token or a deleted
 * repository must not keep a channel subscribed). Without a named deployment, the one subscription
 * to that target on any deployment is meant.
 */
export async function unsubscribeChannel(
  services: Services,
  actor: Actor,
  request: { channelId: string; target: RepoTarget; deployment?: Deployment | undefined },
): Promise<Subscription> {
  const subs = await services.subscriptions.forChannel(actor.teamId, request.channelId);
  const matches = subs.filter(
    (s) =>
      (request.deployment === undefined || s.deployment === request.deployment) &&
      sameTarget(s, request.target),
  );
  const [match, ...others] = matches;
  if (match === undefined) {
    throw new UserFacingError(
      `This channel is not subscribed to ${describeTarget(request.target)}. \`/ci subscriptions\` lists what it is subscribed to.`,
    );
  }
  if (others.length > 0) {
    throw new UserFacingError(
      `This channel is subscribed to ${describeTarget(request.target)} on several deployments; add --com, --org or --enterprise to say which.`,
    );
  }
  await services.subscriptions.remove(
    actor.teamId,
    request.channelId,
    match.deployment,
    targetKeyOf(match.target),
  );
  return match;
}

export function channelSubscriptions(
  services: Services,
  actor: Actor,
  channelId: string,
): Promise<Subscription[]> {
  return services.subscriptions.forChannel(actor.teamId, channelId);
}

/** The subscriptions a person created, in every channel (their App Home lists them). */
export function subscriptionsCreatedBy(services: Services, actor: Actor): Promise<Subscription[]> {
  return services.subscriptions.createdBy(actor.teamId, actor.userId);
}

function sameTarget(sub: Subscription, target: RepoTarget): boolean {
  if (target.kind === 'owner') {
    return sub.target.kind === 'owner' && sub.target.owner.toLowerCase() === target.owner.toLowerCase();
  }
  if (sub.target.kind !== 'repo') return false;
  return target.repo.kind === 'id'
    ? sub.target.repoId === target.repo.id
    : sub.target.slug.toLowerCase() === target.repo.slug.toLowerCase();
}

export function describeTarget(target: RepoTarget): string {
  if (target.kind === 'owner') return `${target.owner}/*`;
  return target.repo.kind === 'id' ? `repository ${target.repo.id}` : target.repo.slug;
}
