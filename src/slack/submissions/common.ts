import { randomBytes } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import type { Actor } from '../../ops/actor.js';
import { describeError, type ErrorContext } from '../../ops/describe-error.js';
import type { Services } from '../../services.js';
import type { Interaction } from '../interaction.js';
import { createReply, type SlackMessage } from '../reply.js';
import type { ModalView } from '../views/modal.js';

/** What modal submissions (and modals filled after a slow call) share. */

/** An interaction for a submission: no response_url, so replies go to the channel the modal came from. */
export function submissionInteraction(
  services: Services,
  client: webApi.WebClient,
  actor: Actor,
  channelId: string | undefined,
  callbackId: string,
): Interaction {
  return {
    services,
    client,
    actor,
    channelId,
    triggerId: undefined,
    reply: createReply({ client, userId: actor.userId, channelId, logger: services.logger }),
    logger: services.logger.child({ view: callbackId, user: actor.userId }),
  };
}

/** The change is made and the modal says so; a failed announcement is only logged. */
export async function announceFromModal(ix: Interaction, message: SlackMessage): Promise<void> {
  await ix.reply.publicly(message).catch((error: unknown) => {
    ix.logger.warn({ err: error }, 'could not announce a change in the channel');
  });
}

/** The sentence for a failure shown inside a modal; unexpected errors are logged with a reference. */
export function describeForModal(services: Services, error: unknown, context: ErrorContext): string {
  const reference = randomBytes(4).toString('hex');
  const described = describeError(error, context, reference);
  if (described.reference) {
    services.logger.error(
      { err: error, reference, action: context.action },
      'unexpected error behind a modal',
    );
  } else {
    services.logger.info({ code: codeOf(error), action: context.action }, 'request behind a modal failed');
  }
  return described.text;
}

/** views.update that only logs when it fails: the user may have closed the modal meanwhile. */
export async function updateModal(
  services: Services,
  client: webApi.WebClient,
  viewId: string,
  view: ModalView,
): Promise<void> {
  await client.views.update({ view_id: viewId, view }).catch((error: unknown) => {
    services.logger.warn({ err: error, viewId }, 'could not update a modal');
  });
}

function codeOf(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}
