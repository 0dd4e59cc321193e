import type { Deployment } from '../config.js';
import type { Services } from '../services.js';
import type { Site } from './views/site.js';
import type { DescribeDeployment } from './views/subscriptions.js';

/**
 * The site of a configured deployment, for whatever runs there now. A deployment that is not
 * configured (an old button, a hand-made value) fails here with the CI client's `bad_request`,
 * before anything is shown or sent.
 */
export function siteOf(services: Services, deployment: Deployment): Site {
  return { deployment, label: services.label(deployment), webUrl: services.ci.deployment(deployment).webUrl };
}

/**
 * How messages name and link the deployment of a stored record (a subscription), which may no
 * longer be configured: then it keeps its name and links nowhere.
 */
export function describeDeployment(services: Services): DescribeDeployment {
  return (deployment) => ({
    label: services.label(deployment),
    webUrl: services.config.ci.deployments[deployment]?.webUrl ?? '',
  });
}
