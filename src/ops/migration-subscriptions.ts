import type { Deployment } from '../config.js';
import type { Services } from '../services.js';
import { type Subscription, targetKeyOf } from '../store/subscriptions.js';
import type { Actor } from './actor.js';
import { UserFacingError } from './describe-error.js';
import { newDeploymentOf } from './moved-repos.js';
import type { RepoTarget } from './references.js';
import { subscribeChannel } from './subscriptions.js';

/**
 * Subscriptions follow a migrated repository: the channels subscribed to it on the old deployment
 * are found, and one click (as whoever clicks) subscribes the channel on the new deployment with
 * the same filters and removes the old subscription.
 */

/**
 * The active subscriptions on `from` that cover the repository: to it by name, or to its owner's
 * `owner/*` (which follows the owner, so it moves as a whole). Slugs compare without case.
 */
export async function subscriptionsLeftBehind(
  services: Services,
  from: Deployment,
  slug: string,
): Promise<Subscription[]> {
  const wanted = slug.toLowerCase();
  const owner = wanted.split('/')[0] ?? '';
  const found = new Map<string, Subscription>();
  for (const subs of (await services.subscriptions.watched(from)).values()) {
    for (const sub of subs) {
      const covers =
        sub.target.kind === 'repo'
          ? sub.target.slug.toLowerCase() === wanted
          : sub.target.owner.toLowerCase() === owner;
      if (covers) found.set(sub.id, sub);
    }
  }
  return [...found.values()];
}

export interface MovedSubscription {
  /** The subscription on the old deployment, now removed. */
  from: Subscription;
  /** The one that replaced it on the new deployment. */
  to: Subscription;
}

/**
 * Moves a subscription to the deployment its repositories went to, as `actor`: their account there
 * must see the repository (or list the owner's), whose token then watches it. The old subscription
 * is removed only once the new one exists.
 */
export async function moveSubscription(
  services: Services,
  actor: Actor,
  subscriptionId: string,
): Promise<MovedSubscription> {
  const old = await services.subscriptions.get(subscriptionId);
  if (!old || old.teamId !== actor.teamId) {
    throw new UserFacingError(
      'This subscription is not there any more: it was moved or removed already. `/ci subscriptions` shows what this channel follows.',
    );
  }
  const to = newDeploymentOf(services, old.deployment);
  if (to === undefined) {
    throw new UserFacingError(`Repositories of ${services.label(old.deployment)} do not move anywhere.`);
  }
  const result = await subscribeChannel(services, actor, to, {
    channelId: old.channelId,
    target: targetOf(old),
    filters: old.filters,
  });
  await services.subscriptions.remove(old.teamId, old.channelId, old.deployment, targetKeyOf(old.target));
  return { from: old, to: result.subscription };
}

function targetOf(sub: Subscription): RepoTarget {
  if (sub.target.kind === 'owner') return { kind: 'owner', owner: sub.target.owner };
  const [owner = '', name = ''] = sub.target.slug.split('/');
  return { kind: 'repo', repo: { kind: 'slug', owner, name, slug: sub.target.slug } };
}
