import type { Deployment } from '../config.js';
import { type ActorSession, openSession } from '../ops/actor.js';
import { type FailureContext, guarded, type Interaction } from './interaction.js';
import type { SlackMessage } from './reply.js';

export interface ActingAbout {
  deployment: Deployment;
  /** What the user asked for, as a verb phrase: "enable rails/rails". */
  action: string;
  /** What is looked up, for not-found answers: "rails/rails". */
  subject?: string;
  isChange?: boolean;
}

/**
 * Runs `work` with the acting user's own CI session. Whatever fails (not linked, no permission, CI
 * down) becomes a private sentence that names their login and what they asked for.
 */
export async function actAs(
  ix: Interaction,
  about: ActingAbout,
  work: (acting: ActorSession) => Promise<void>,
): Promise<void> {
  const context: FailureContext = { ...about };
  await guarded(ix, context, async () => {
    const acting = await openSession(ix.services, ix.actor, about.deployment);
    // Read by reportFailure when `work` throws, so the sentence can say "your … account (login)".
    context.login = acting.account.ciLogin;
    await work(acting);
  });
}

/**
 * A change is announced in the channel ("<@U1> enabled owner/name"); with `--quiet` only the person
 * who acted hears of it, privately.
 */
export async function announceChange(
  ix: Interaction,
  quiet: boolean,
  change: { announcement: SlackMessage; privately: SlackMessage },
): Promise<void> {
  if (quiet) await ix.reply.privately(change.privately);
  else await ix.reply.publicly(change.announcement);
}

/** Where a deployment's repositories live, for links and names in messages. */
export function placeOf(ix: Pick<Interaction, 'services'>, deployment: Deployment) {
  return {
    deployment,
    label: ix.services.label(deployment),
    webUrl: ix.services.ci.deployment(deployment).webUrl,
    now: ix.services.clock(),
  };
}
