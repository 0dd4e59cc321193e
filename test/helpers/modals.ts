import assert from 'node:assert/strict';
import type { Harness } from './app-harness.js';
import type { Message } from './slack-messages.js';
import type { AppResponse } from './slack-requests.js';

/** Waiting for the modals the app opens and fills, and submitting them. */

/**
 * For files that do not test slowness: a CI request timeout and an answer wait generous enough
 * that a busy machine does not turn a correct answer into a timeout (the harness's own CI timeout
 * is 1.5 s, for the files that do).
 */
export const CI_TIMEOUT_MS = 5_000;
export const ANSWER_MS = 8_000;

/**
 * The modal a command or click opened: the one opened with `triggerId`, or the first opened after
 * the fake Slack's `since`-th call. Its view as the app sent it, and the id the fake gave it.
 */
export async function openedModal(
  h: Harness,
  by: { triggerId: string } | { since: number },
  timeoutMs = ANSWER_MS,
): Promise<{ id: string; view: Message }> {
  const call = await h.slack.waitForCall(
    'views.open',
    (c) => ('triggerId' in by ? c.args.trigger_id === by.triggerId : h.slack.calls.indexOf(c) >= by.since),
    timeoutMs,
  );
  assert.equal(call.ok, true, `views.open failed: ${call.error}`);
  return { id: String((call.response.view as Message).id), view: call.args.view as Message };
}

/** How many times the modal `id` was updated so far. */
export function updatesOf(h: Harness, id: string): number {
  return h.slack.callsTo('views.update').filter((c) => c.args.view_id === id).length;
}

/**
 * A views.update of modal `id` (its view as the app sent it): the first one after its first `after`
 * updates, and with `matching`, the first whose content matches.
 */
export async function modalUpdate(
  h: Harness,
  id: string,
  options: { after?: number; matching?: RegExp; timeoutMs?: number } = {},
): Promise<Message> {
  const updates = () => h.slack.callsTo('views.update').filter((c) => c.args.view_id === id);
  const call = await h.slack.waitForCall(
    'views.update',
    (c) =>
      c.args.view_id === id &&
      updates().indexOf(c) >= (options.after ?? 0) &&
      (options.matching?.test(JSON.stringify(c.args.view)) ?? true),
    options.timeoutMs ?? ANSWER_MS,
  );
  assert.equal(call.ok, true, `views.update failed: ${call.error}`);
  return call.args.view as Message;
}

/** Opens the modal with `/ci <text>` and waits until the "Loading…" modal was filled. */
export async function openAndFill(
  h: Harness,
  text: string,
  options: { userId?: string; timeoutMs?: number } = {},
): Promise<{ id: string; view: Message; ackMs: number; responseUrl: string }> {
  const { ack, responseUrl, triggerId } = await h.command(
    text,
    options.userId ? { userId: options.userId } : {},
  );
  assert.equal(ack.status, 200);
  const { id } = await openedModal(h, { triggerId });
  const view = await modalUpdate(h, id, { timeoutMs: options.timeoutMs });
  return { id, view, ackMs: ack.ms, responseUrl };
}

/**
 * Submits the modal as Slack would: with its own callback_id and private_metadata, and `values`
 * (block_id → action_id → element state, see `textValue`) as the user left them.
 */
export function submitModal(
  h: Harness,
  modal: { id: string; view: Message },
  values: Record<string, Record<string, object>>,
  options: { userId?: string } = {},
): Promise<AppResponse> {
  return h.submit({
    ...(options.userId ? { userId: options.userId } : {}),
    view: {
      id: modal.id,
      callbackId: String(modal.view.callback_id),
      privateMetadata: String(modal.view.private_metadata),
      values,
    },
  });
}

/** What a submitted plain text input looks like in `view.state.values`. */
export function textValue(value: string | null) {
  return { value: { type: 'plain_text_input', value } };
}

/** The ack body of a view submission. */
export function ackBody(ack: { body: string }): Message {
  return ack.body === '' ? {} : (JSON.parse(ack.body) as Message);
}
