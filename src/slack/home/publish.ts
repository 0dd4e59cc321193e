import type { webApi } from '@slack/bolt';
import { listRepos } from '../../ci/repos.js';
import { compareText } from '../../compare-text.js';
import { type Actor, openSession } from '../../ops/actor.js';
import { describeError } from '../../ops/describe-error.js';
import { subscriptionsCreatedBy } from '../../ops/subscriptions.js';
import type { Services } from '../../services.js';
import { describeDeployment, siteOf } from '../deployments.js';
import { type HomeDeployment, homeView } from '../views/home.js';
import { homeSubscriptionsSection } from '../views/subscriptions.js';

/**
 * Builds and publishes a user's App Home. Recent builds come from each linked deployment with the
 * user's own token (GET /repos?member=<login>: their repositories with recent activity). A
 * deployment that fails shows why instead of its builds. Never throws: the Home tab is best effort,
 * and failures are logged.
 */
export async function publishHome(services: Services, client: webApi.WebClient, actor: Actor): Promise<void> {
  try {
    const linked = await services.accounts.list(actor.teamId, actor.userId);
    const deployments = await Promise.all(
      services.ci.deployments.map(async (settings): Promise<HomeDeployment> => {
        const site = siteOf(services, settings.name);
        const account = linked.find((a) => a.deployment === settings.name);
        const entry: HomeDeployment = { site, account };
        if (!account) return entry;
        try {
          const { session } = await openSession(services, actor, settings.name);
          const repos = await listRepos(session, { member: account.ciLogin });
          entry.repos = repos.sort((a, b) =>
            compareText(b.last_build_started_at ?? '', a.last_build_started_at ?? ''),
          );
        } catch (error) {
          entry.problem = describeError(error, { deploymentLabel: site.label }).text;
        }
        return entry;
      }),
    );
    const subscriptions = await subscriptionsCreatedBy(services, actor);
    const sections = homeSubscriptionsSection(subscriptions, describeDeployment(services));
    await client.views.publish({
      user_id: actor.userId,
      view: homeView({ deployments, sections, now: services.clock() }),
    });
  } catch (error) {
    services.logger.warn({ err: error, user: actor.userId }, 'could not publish the App Home');
  }
}
