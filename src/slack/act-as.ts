import type { CiSession } from '../ci/client.js';
import type { Deployment } from '../config.js';
import { openSession } from '../ops/actor.js';
import { guarded, type Interaction } from './interaction.js';

/** The acting user's own CI session, with what messages need to name and link things. */
export interface Acting {
  session: CiSession;
  login: string;
  deployment: Deployment;
  /** "travis-ci.com" */
  label: string;
  webUrl: string;
}

export interface ActAbout {
  /** Verb phrase for error sentences: "regenerate the key of rails/rails". */
  action: string;
  /** What a not-found answer was about: "rails/rails". */
  subject?: string;
  isChange?: boolean;
}

/**
 * Runs `work` with the interaction user's own linked token. Without a link, NotLinkedError goes to
 * the caller's guard (which offers the Link button) and nothing reaches the CI service; with one,
 * failures become sentences that name the user's CI login and what they tried to do.
 */
export async function actAs(
  ix: Interaction,
  deployment: Deployment,
  about: ActAbout,
  work: (acting: Acting) => Promise<void>,
): Promise<void> {
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  const acting: Acting = {
    session,
    login: account.ciLogin,
    deployment,
    label: ix.services.label(deployment),
    webUrl: ix.services.ci.deployment(deployment).webUrl,
  };
  await guarded(ix, { deployment, ...about, login: account.ciLogin }, () => work(acting));
}
