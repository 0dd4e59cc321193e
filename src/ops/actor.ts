import type { CiSession } from '../ci/client.js';
import { DEPLOYMENTS, type Deployment } from '../config.js';
import type { Services } from '../services.js';
import type { LinkedAccount } from '../store/linked-accounts.js';
import { NotLinkedError, UserFacingError } from './describe-error.js';

/** The Slack user on whose behalf something runs. Their own linked token is the only one ever used. */
export interface Actor {
  teamId: string;
  userId: string;
}

/**
 * The deployment a command runs against: the one named with --com/--org/--enterprise; otherwise the
 * configured default when the user linked it (or linked nothing yet); otherwise the first one they linked.
 */
export async function chooseDeployment(
  services: Services,
  actor: Actor,
  named?: Deployment,
): Promise<Deployment> {
  const configured = services.config.ci.deployments;
  if (named) {
    if (!configured[named])
      throw new UserFacingError(`The ${named} deployment is not configured in this workspace.`);
    return named;
  }
  const fallback = services.config.ci.defaultDeployment;
  const linked = new Set((await services.accounts.list(actor.teamId, actor.userId)).map((a) => a.deployment));
  if (linked.size === 0 || linked.has(fallback)) return fallback;
  return DEPLOYMENTS.find((d) => linked.has(d) && configured[d]) ?? fallback;
}

export interface ActorSession {
  session: CiSession;
  account: LinkedAccount;
}

/** A CI session with the actor's own token for that deployment; NotLinkedError when there is none. */
export async function openSession(
  services: Pick<Services, 'accounts' | 'ci'>,
  actor: Actor,
  deployment: Deployment,
): Promise<ActorSession> {
  const linked = await services.accounts.open(actor.teamId, actor.userId, deployment);
  if (!linked) throw new NotLinkedError(deployment);
  return { session: services.ci.session(deployment, linked.token), account: linked.account };
}
