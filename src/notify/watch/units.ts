import { compareText } from '../../compare-text.js';
import { DEPLOYMENTS, type Deployment } from '../../config.js';
import type { Services } from '../../services.js';
import type { Subscription } from '../../store/subscriptions.js';

/** One repository of one deployment: what a lease covers and what is polled. */
export interface WatchUnit {
  deployment: Deployment;
  repoId: number;
}

/** A watched repository with what is needed to watch it. */
export interface WatchedRepo extends WatchUnit {
  /** `deployment:repoId`, the unit's name in leases, schedules and logs. */
  key: string;
  slug: string;
  /** The active subscriptions covering it, oldest first: their creators' tokens are tried in that order. */
  subscriptions: Subscription[];
}

export function unitKey(deployment: Deployment, repoId: number): string {
  return `${deployment}:${repoId}`;
}

/** The configured deployments, in their fixed order. */
export function configuredDeployments(services: Services): Deployment[] {
  return DEPLOYMENTS.filter((d) => services.config.ci.deployments[d] !== undefined);
}

/** Every repository some active subscription covers, on every configured deployment. */
export async function loadWatched(services: Services): Promise<Map<string, WatchedRepo>> {
  const watched = new Map<string, WatchedRepo>();
  for (const deployment of configuredDeployments(services)) {
    for (const [repoId, subs] of await services.subscriptions.watched(deployment)) {
      const subscriptions = [...subs].sort(oldestFirst);
      const first = subscriptions[0];
      if (!first) continue;
      watched.set(unitKey(deployment, repoId), {
        deployment,
        repoId,
        key: unitKey(deployment, repoId),
        slug: slugIn(first, repoId),
        subscriptions,
      });
    }
  }
  return watched;
}

function oldestFirst(a: Subscription, b: Subscription): number {
  return compareText(a.createdAt, b.createdAt) || compareText(a.id, b.id);
}

function slugIn(sub: Subscription, repoId: number): string {
  if (sub.target.kind === 'repo') return sub.target.slug;
  return sub.target.repos.find((r) => r.id === repoId)?.slug ?? `${sub.target.owner}/#${repoId}`;
}
