import type { Services } from '../services.js';
import type { DescribeDeployment } from './views/subscriptions.js';

/** How messages name and link each deployment (a deployment no longer configured keeps its name, unlinked). */
export function describeDeployment(services: Services): DescribeDeployment {
  return (deployment) => ({
    label: services.label(deployment),
    webUrl: services.config.ci.deployments[deployment]?.webUrl ?? '',
  });
}
