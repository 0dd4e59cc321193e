import { classifyDeliveryFailure } from '../notify/delivery-errors.js';
import { subscriptionsLeftBehind } from '../ops/migration-subscriptions.js';
import type { Services } from '../services.js';
import { describeDeployment, siteOf } from '../slack/deployments.js';
import { subscriptionMoveOffer } from '../slack/views/migration-offers.js';
import type { MigrationBatch, MigrationBatches } from '../store/migration-batches.js';

/**
 * Asks each channel subscribed on the old deployment to the repository that just moved (or to its
 * owner's `owner/*`) whether to move its subscription, once per subscription whichever replica or
 * batch gets there first. A question that could not be posted for a passing reason gives its claim
 * back, so the next repository that finishes asks again.
 */
export async function offerSubscriptionMoves(
  deps: { services: Services; batches: MigrationBatches; logger: Services['logger'] },
  batch: MigrationBatch,
  slug: string,
): Promise<void> {
  const { services, batches, logger } = deps;
  const subscriptions = await subscriptionsLeftBehind(services, batch.from, slug);
  if (subscriptions.length === 0) return;
  const from = describeDeployment(services)(batch.from);
  const to = siteOf(services, batch.to);
  for (const subscription of subscriptions) {
    if (!(await batches.claimOffer(subscription.id))) continue;
    try {
      await services.outbox.post({
        teamId: subscription.teamId,
        channel: subscription.channelId,
        ...subscriptionMoveOffer({ subscription, slug, from, to }),
      });
    } catch (error) {
      if (classifyDeliveryFailure(error) === 'transient') await batches.releaseOffer(subscription.id);
      logger.warn(
        { err: error, subscription: subscription.id },
        'could not ask a channel to move its subscription',
      );
    }
  }
}
