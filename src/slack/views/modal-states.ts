import { VIEWS } from '../ids.js';
import { escapeMrkdwn } from '../text/escape.js';
import { section } from './blocks.js';
import { type ModalView, modal } from './modal.js';

/**
 * Modals that only show where things stand: "Loading…" while CI data is fetched after a trigger
 * (the trigger expires in 3 s, so the modal opens first and is filled later), "Working…" after a
 * submission, and the problem that stopped either. Their submit, if any, closes them.
 */

export function loadingModal(title: string, what: string): ModalView {
  return modal({
    callbackId: VIEWS.info,
    title,
    blocks: [section(`:hourglass_flowing_sand: ${escapeMrkdwn(what)}…`)],
  });
}

/** `text` is a plain sentence (escaped here). */
export function problemModal(title: string, text: string): ModalView {
  return modal({
    callbackId: VIEWS.info,
    title,
    close: 'Close',
    blocks: [section(`:warning: ${escapeMrkdwn(text)}`)],
  });
}
