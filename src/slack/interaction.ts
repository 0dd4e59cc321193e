import { randomBytes } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import type { Deployment } from '../config.js';
import type { Logger } from '../log.js';
import type { Actor } from '../ops/actor.js';
import { describeError, type ErrorContext } from '../ops/describe-error.js';
import type { Services } from '../services.js';
import type { Reply } from './reply.js';
import { type ErrorOffers, errorMessage } from './views/errors.js';

/** What every command, click and submission handler gets: who acts, where, and how to answer. */
export interface Interaction {
  services: Services;
  client: webApi.WebClient;
  actor: Actor;
  channelId: string | undefined;
  triggerId: string | undefined;
  reply: Reply;
  logger: Logger;
}

export interface FailureContext extends Omit<ErrorContext, 'deploymentLabel'> {
  deployment: Deployment;
  rerun?: ErrorOffers['rerun'];
}

/**
 * Tells the user, privately, what went wrong and what they can do; logs what they cannot fix.
 * Never throws: a failure to answer is logged, since there is no one left to tell.
 */
export async function reportFailure(ix: Interaction, error: unknown, context: FailureContext): Promise<void> {
  const reference = randomBytes(4).toString('hex');
  const described = describeError(
    error,
    { ...context, deploymentLabel: ix.services.label(context.deployment) },
    reference,
  );
  if (described.reference) {
    ix.logger.error(
      { err: error, reference, action: context.action },
      'unexpected error while handling a Slack request',
    );
  } else {
    ix.logger.info(
      { code: errorCode(error), action: context.action },
      'request failed with a user-facing error',
    );
  }
  try {
    await ix.reply.privately(
      errorMessage(described, { deployment: context.deployment, rerun: context.rerun }),
    );
  } catch (replyError) {
    ix.logger.error({ err: replyError, reference }, 'could not tell the user about a failure');
  }
}

/** Runs a handler's slow part after the ack; whatever it throws becomes a message to the user. */
export async function guarded(
  ix: Interaction,
  context: FailureContext,
  work: () => Promise<void>,
): Promise<void> {
  try {
    await work();
  } catch (error) {
    await reportFailure(ix, error, context);
  }
}

function errorCode(error: unknown): string | undefined {
  if (typeof error === 'object' && error !== null && 'code' in error) {
    const code = (error as { code: unknown }).code;
    return typeof code === 'string' ? code : undefined;
  }
  return undefined;
}
