import { randomBytes } from 'node:crypto';
import type { webApi } from '@slack/bolt';
import { describeError } from '../ops/describe-error.js';
import type { Services } from '../services.js';
import type { FailureContext, Interaction } from './interaction.js';
import { createReply } from './reply.js';
import type { ModalView } from './views/modal.js';
import { loadingModal, problemModal } from './views/modal-states.js';

/**
 * Modals whose content depends on the CI service. A trigger_id opens a view only within 3 s, and a
 * submission must be acknowledged within 3 s, so both open (or turn into) a waiting modal at once
 * and are filled with `views.update` when the CI service has answered, with the result or with
 * the sentence that says what went wrong.
 */

/** The sentence for a failure shown inside a modal; an unexpected error is logged with a reference. */
export function failureText(
  ix: Pick<Interaction, 'services' | 'logger'>,
  error: unknown,
  context: FailureContext,
): string {
  const reference = randomBytes(4).toString('hex');
  const described = describeError(
    error,
    { ...context, deploymentLabel: ix.services.label(context.deployment) },
    reference,
  );
  if (described.reference) {
    ix.logger.error(
      { err: error, reference, action: context.action },
      'unexpected error while filling a modal',
    );
  }
  return described.text;
}

export interface ModalFill {
  title: string;
  /** What the waiting modal says is happening: "Looking up rails/rails". */
  waiting: string;
  failure: FailureContext;
}

/** Opens a waiting modal with the interaction's trigger now, then fills it with what `load` builds. */
export async function openFilledModal(
  ix: Interaction,
  fill: ModalFill,
  load: () => Promise<ModalView>,
): Promise<void> {
  const opened = await ix.client.views.open({
    trigger_id: ix.triggerId ?? '',
    view: loadingModal(fill.title, fill.waiting),
  });
  const viewId = opened.view?.id;
  if (viewId === undefined) throw new Error('views.open answered without a view id');
  await fillModal(ix, viewId, fill, load);
}

/** Replaces the modal `viewId` (already showing a waiting state) with the result of `load`. */
export async function fillModal(
  ix: Pick<Interaction, 'services' | 'logger' | 'client'>,
  viewId: string,
  fill: Omit<ModalFill, 'waiting'>,
  load: () => Promise<ModalView>,
): Promise<void> {
  let view: ModalView;
  try {
    view = await load();
  } catch (error) {
    view = problemModal(fill.title, failureText(ix, error, fill.failure));
  }
  try {
    await ix.client.views.update({ view_id: viewId, view });
  } catch (error) {
    // The user closed the modal, or Slack refused the view: nobody is left to tell but the log.
    ix.logger.warn({ err: error, action: fill.failure.action }, 'could not update a modal');
  }
}

/**
 * The interaction behind a modal submission: who submitted, and the channel the modal was opened
 * from (kept in its private_metadata), where announcements go. There is no response_url.
 */
export function submissionInteraction(
  services: Services,
  client: webApi.WebClient,
  submitter: { teamId: string; userId: string },
  channelId: string | undefined,
  view: string,
): Interaction {
  return {
    services,
    client,
    actor: submitter,
    channelId,
    triggerId: undefined,
    reply: createReply({ client, userId: submitter.userId, channelId, logger: services.logger }),
    logger: services.logger.child({ view, user: submitter.userId }),
  };
}
