import { randomBytes } from 'node:crypto';
import type { RespondFn, webApi } from '@slack/bolt';
import type { Deployment } from '../config.js';
import type { Logger } from '../log.js';
import type { Actor } from '../ops/actor.js';
import { type DescribedError, describeError, type ErrorContext, errorCode } from '../ops/describe-error.js';
import { newDeploymentOf } from '../ops/moved-repos.js';
import type { RepoRef } from '../ops/references.js';
import type { Services } from '../services.js';
import { learnFromRefusal, rerunOffer } from './moved.js';
import { createReply, type Reply } from './reply.js';
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
  /** The `/ci` text a command runs, so a failure can offer to run it again where a repository moved. */
  commandText?: string;
  /** The repository the command changes (restart, env set …), to remember it moved when the service says so. */
  changedRepo?: RepoRef;
}

/**
 * Acknowledges a Slack request first of all (Slack waits at most 3 s, and neither the CI service
 * nor Redis may delay it) and records how long the ack took.
 */
export async function ackAtOnce(
  services: Services,
  kind: 'command' | 'action' | 'shortcut',
  ack: () => Promise<void>,
): Promise<void> {
  const started = performance.now();
  await ack();
  services.metrics.observeAck(kind, performance.now() - started);
}

/**
 * Runs the slow part of a request (after its ack) when the process has room for it (see
 * WorkLimiter); when too much is already waiting, tells the user to try again instead.
 */
export async function afterAck(services: Services, reply: Reply, work: () => Promise<void>): Promise<void> {
  if (services.work.submit(work)) return;
  services.logger.warn(
    { running: services.work.running, queued: services.work.queued },
    'too busy: request turned away',
  );
  await reply
    .privately({ text: 'I am too busy to take this on right now. Please try again in a minute.' })
    .catch((error: unknown) => services.logger.warn({ err: error }, 'could not say that the app is busy'));
}

/** Where an interaction comes from, as each Slack surface reads it from its payload. */
export interface InteractionSource {
  actor: Actor;
  channelId: string | undefined;
  triggerId: string | undefined;
  /** Answers through the payload's response_url, when Slack gave one. */
  respond: RespondFn | undefined;
  /** What the interaction's log lines carry besides the user: `{ command: 'builds' }`. */
  logFields: Record<string, unknown>;
}

export function createInteraction(
  services: Services,
  client: webApi.WebClient,
  source: InteractionSource,
): Interaction {
  const { actor, channelId } = source;
  return {
    services,
    client,
    actor,
    channelId,
    triggerId: source.triggerId,
    reply: createReply({
      respond: source.respond,
      client,
      userId: actor.userId,
      channelId,
      logger: services.logger,
    }),
    logger: services.logger.child({ ...source.logFields, user: actor.userId }),
  };
}

export interface FailureContext extends Omit<ErrorContext, 'deploymentLabel'> {
  deployment: Deployment;
  rerun?: ErrorOffers['rerun'];
}

/**
 * What went wrong, as the user reads it. What they cannot fix is logged as an error, with the
 * reference the sentence shows; what they can, at info.
 */
export function describeFailure(
  ix: Pick<Interaction, 'services' | 'logger'>,
  error: unknown,
  context: FailureContext,
): DescribedError {
  const reference = randomBytes(4).toString('hex');
  const movedTo = newDeploymentOf(ix.services, context.deployment);
  const described = describeError(
    error,
    {
      ...context,
      deploymentLabel: ix.services.label(context.deployment),
      ...(movedTo ? { movedToLabel: ix.services.label(movedTo) } : {}),
    },
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
  return described;
}

/**
 * Tells the user, privately, what went wrong and what they can do.
 * Never throws: a failure to answer is logged, since there is no one left to tell.
 */
export async function reportFailure(ix: Interaction, error: unknown, context: FailureContext): Promise<void> {
  const described = describeFailure(ix, error, context);
  await learnFromRefusal(ix, error, context.deployment);
  try {
    const rerun = context.rerun ?? rerunOffer(ix, context.deployment);
    await ix.reply.privately(errorMessage(described, { deployment: context.deployment, rerun }));
  } catch (replyError) {
    ix.logger.error(
      { err: replyError, reference: described.reference },
      'could not tell the user about a failure',
    );
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
