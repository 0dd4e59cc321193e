import { isCiError } from '../ci/errors.js';
import type { Deployment } from '../config.js';
import { movedRefOf, newDeploymentOf, rememberMoved } from '../ops/moved-repos.js';
import type { Interaction } from './interaction.js';
import type { ErrorOffers } from './views/errors.js';

/**
 * What a failure about a repository that moved off the old deployment leads to: the offer to run
 * the same command on the new deployment, and remembering the move, so the next change of that
 * repository is refused at once (src/slack/commands/read-only.ts).
 */

/** The longest command text a button value carries (ACTIONS.runOnDeployment). */
const MAX_RERUN_TEXT = 1800;

/** "Run on travis-ci.com" for a slash command run against a deployment repositories moved off. */
export function rerunOffer(ix: Interaction, deployment: Deployment): ErrorOffers['rerun'] {
  const to = newDeploymentOf(ix.services, deployment);
  const text = ix.commandText;
  if (to === undefined || text === undefined || text.length > MAX_RERUN_TEXT) return undefined;
  return { deployment: to, text, label: ix.services.label(to) };
}

/**
 * When the service refused a change with `migrated_repository`, remembers that the command's
 * repository moved. Never throws: the user is told about the refusal either way.
 */
export async function learnFromRefusal(
  ix: Interaction,
  error: unknown,
  deployment: Deployment,
): Promise<void> {
  if (!isCiError(error, 'migrated_repository') || !ix.changedRepo) return;
  try {
    await rememberMoved(ix.services, deployment, movedRefOf(ix.changedRepo), 'service_refused');
  } catch (storeError) {
    ix.logger.warn({ err: storeError }, 'could not remember that a repository moved');
  }
}
