import { type Acting, type ActingAbout, openActing } from './acting.js';
import { describeFailure, type Interaction } from './interaction.js';
import { escapeMrkdwn } from './text/escape.js';
import type { ModalView } from './views/modal.js';
import { problemModal, waitingModal } from './views/modal-states.js';

/**
 * Modals whose content comes from the CI service. A trigger_id opens a view only within 3 s, and a
 * submission must be acknowledged within 3 s, so both show a waiting modal at once and are filled
 * with `views.update` when the CI service has answered: with the result, or with the sentence that
 * says what went wrong (naming the user's login and what they asked for).
 */

export interface ModalFill {
  /** The modal's title, kept when a failure takes the place of its content. */
  title: string;
  /** What the user asked for, for that sentence. */
  about: ActingAbout;
}

/**
 * Opens a modal with the interaction's trigger as the acting user: their session first (without a
 * link, NotLinkedError goes to the caller's guard, which offers the Link button, and no modal
 * opens), then "`waiting`…" at once, then what `build` makes in its place.
 */
export async function openFilledModal(
  ix: Interaction,
  fill: ModalFill & { /** A plain sentence: "Looking up rails/rails". */ waiting: string },
  build: (acting: Acting) => Promise<ModalView>,
): Promise<void> {
  const acting = await openActing(ix.services, ix.actor, fill.about.deployment);
  const opened = await ix.client.views.open({
    trigger_id: ix.triggerId ?? '',
    view: waitingModal(fill.title, escapeMrkdwn(fill.waiting)),
  });
  const viewId = opened.view?.id;
  if (viewId === undefined) throw new Error('views.open answered without a view id');
  await fillAs(ix, viewId, fill, async () => acting, build);
}

/**
 * Fills the modal `viewId`, already showing a waiting state (a submission acknowledged with
 * "Saving…"), with what `build` makes as the acting user.
 */
export async function fillModal(
  ix: Interaction,
  viewId: string,
  fill: ModalFill,
  build: (acting: Acting) => Promise<ModalView>,
): Promise<void> {
  return fillAs(ix, viewId, fill, () => openActing(ix.services, ix.actor, fill.about.deployment), build);
}

async function fillAs(
  ix: Interaction,
  viewId: string,
  fill: ModalFill,
  open: () => Promise<Acting>,
  build: (acting: Acting) => Promise<ModalView>,
): Promise<void> {
  let login: string | undefined;
  let view: ModalView;
  try {
    const acting = await open();
    login = acting.login;
    view = await build(acting);
  } catch (error) {
    view = problemModal(fill.title, describeFailure(ix, error, { ...fill.about, login }).text);
  }
  await updateModal(ix, viewId, view);
}

/** views.update that only logs when it fails: the user may have closed the modal meanwhile. */
export async function updateModal(
  ix: Pick<Interaction, 'client' | 'logger'>,
  viewId: string,
  view: ModalView,
): Promise<void> {
  await ix.client.views.update({ view_id: viewId, view }).catch((error: unknown) => {
    ix.logger.warn({ err: error, viewId }, 'could not update a modal');
  });
}
