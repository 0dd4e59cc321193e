import type { CiSession } from '../ci/client.js';
import type { Deployment } from '../config.js';
import { type Actor, openSession } from '../ops/actor.js';
import type { Services } from '../services.js';
import { siteOf } from './deployments.js';
import { type FailureContext, guarded, type Interaction } from './interaction.js';
import type { SlackMessage } from './reply.js';
import type { Site } from './views/site.js';

/** The acting user's own CI session on one deployment, with what messages need to name things there. */
export interface Acting {
  session: CiSession;
  /** Their login on that deployment: error sentences name it ("your travis-ci.com account (rkh)"). */
  login: string;
  site: Site;
}

/** What the user asked for, for the sentence that says what went wrong (their login is added). */
export type ActingAbout = Omit<FailureContext, 'login'>;

/**
 * The actor's own session on `deployment`. Throws NotLinkedError when they have not linked an
 * account there, before any CI request: the caller's guard turns it into "link your account".
 */
export async function openActing(services: Services, actor: Actor, deployment: Deployment): Promise<Acting> {
  const { session, account } = await openSession(services, actor, deployment);
  return { session, login: account.ciLogin, site: siteOf(services, deployment) };
}

/**
 * Runs `work` as the interaction's user, with their own linked token. Whatever fails becomes a
 * private sentence: "link your account" (with a Link button, and no CI request sent) when they have
 * not linked one, otherwise one that names their login and what they asked for.
 */
export async function actAs(
  ix: Interaction,
  about: ActingAbout,
  work: (acting: Acting) => Promise<void>,
): Promise<void> {
  await guarded(ix, about, async () => {
    const acting = await openActing(ix.services, ix.actor, about.deployment);
    await guarded(ix, { ...about, login: acting.login }, () => work(acting));
  });
}

export interface Change {
  /** For the channel: "<@U1> enabled owner/name". */
  announcement: SlackMessage;
  /** For the person who acted, when the channel is not told: "Enabled owner/name." */
  confirmation: SlackMessage;
  /** The confirmation takes the place of the message whose button made the change (the offer). */
  replacesOffer?: boolean;
}

/**
 * A change is announced in the channel; with `--quiet`, or where there is no channel (App Home),
 * only the person who acted hears of it, privately.
 */
export async function announceChange(ix: Interaction, quiet: boolean, change: Change): Promise<void> {
  if (quiet || !ix.channelId) {
    await ix.reply.privately(change.confirmation, { replaceOriginal: change.replacesOffer ?? false });
  } else {
    await ix.reply.publicly(change.announcement);
  }
}
