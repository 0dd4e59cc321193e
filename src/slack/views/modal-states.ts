import { VIEWS } from '../ids.js';
import type { Block } from '../reply.js';
import { escapeMrkdwn } from '../text/escape.js';
import { section } from './blocks.js';
import { type ModalView, modal } from './modal.js';

/**
 * Modals that only show something: a result, "Saving…" while a slow call runs (a trigger or a
 * submission must be answered within 3 s, so the modal shows this first and is filled later), or
 * the problem that stopped it. Their one button closes them.
 */

export function infoModal(title: string, blocks: Block[], close = 'Close'): ModalView {
  return modal({ callbackId: VIEWS.info, title, close, blocks });
}

/** ":hourglass_flowing_sand: Saving the SSH key of `owner/name`…": `mrkdwn` is escaped already. */
export function waitingModal(title: string, mrkdwn: string): ModalView {
  return infoModal(title, [section(`:hourglass_flowing_sand: ${mrkdwn}…`)]);
}

/** `sentence` is plain text (escaped here). */
export function problemModal(title: string, sentence: string): ModalView {
  return infoModal(title, [section(`:warning: ${escapeMrkdwn(sentence)}`)]);
}
