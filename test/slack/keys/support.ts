import assert from 'node:assert/strict';
import type { Harness } from '../../helpers/app-harness.js';

/** Test helpers shared by the key, lint and account view tests. */

/**
 * Generous waits for the files that do not test slowness (slow-ci.test.ts does, with the harness's
 * 1.5 s CI timeout): a busy machine must not turn a correct answer into a timeout.
 */
export const CI_TIMEOUT_MS = 5_000;
export const ANSWER_MS = 8_000;

type Json = Record<string, unknown>;

/** Every element of every actions block (and section accessory) of a message or view. */
export function elementsOf(message: Json): Json[] {
  const blocks = (message.blocks ?? []) as Json[];
  return blocks.flatMap((block) => {
    if (block.type === 'actions') return block.elements as Json[];
    if (block.accessory) return [block.accessory as Json];
    return [];
  });
}

export function buttonOf(message: Json, actionIdPrefix: string): Json {
  const found = elementsOf(message).find((e) => String(e.action_id).startsWith(actionIdPrefix));
  assert.ok(found, `no ${actionIdPrefix} button in ${JSON.stringify(message.blocks)}`);
  return found;
}

/** The modal opened with this trigger_id (the command's or click's), and its id. */
export async function openedModal(h: Harness, triggerId: string): Promise<{ id: string; view: Json }> {
  const call = await h.slack.waitForCall('views.open', (c) => c.args.trigger_id === triggerId, ANSWER_MS);
  assert.equal(call.ok, true, `views.open failed: ${call.error}`);
  const view = call.response.view as Json;
  return { id: String(view.id), view: call.args.view as Json };
}

/** The next views.update of view `id` after `since` updates of it. */
export async function nextUpdate(
  h: Harness,
  id: string,
  since: number,
  timeoutMs = ANSWER_MS,
): Promise<Json> {
  const updatesOf = () => h.slack.callsTo('views.update').filter((c) => c.args.view_id === id);
  const call = await h.slack.waitForCall(
    'views.update',
    (c) => c.args.view_id === id && updatesOf().indexOf(c) >= since,
    timeoutMs,
  );
  assert.equal(call.ok, true, `views.update failed: ${call.error}`);
  return call.args.view as Json;
}

export function updatesOf(h: Harness, id: string): number {
  return h.slack.callsTo('views.update').filter((c) => c.args.view_id === id).length;
}

/** Opens the modal with `/ci <text>` and waits until the "Loading…" modal was filled. */
export async function openAndFill(
  h: Harness,
  text: string,
  options: { userId?: string; timeoutMs?: number } = {},
): Promise<{ id: string; view: Json; ackMs: number; responseUrl: string }> {
  const { ack, responseUrl, triggerId } = await h.command(
    text,
    options.userId ? { userId: options.userId } : {},
  );
  assert.equal(ack.status, 200);
  const { id } = await openedModal(h, triggerId);
  const view = await nextUpdate(h, id, 0, options.timeoutMs);
  return { id, view, ackMs: ack.ms, responseUrl };
}

/** What a submitted plain text input looks like in `view.state.values`. */
export function textValue(value: string | null) {
  return { value: { type: 'plain_text_input', value } };
}

/** The ack body of a view submission. */
export function ackBody(ack: { body: string }): Json {
  return ack.body === '' ? {} : (JSON.parse(ack.body) as Json);
}

/** Nothing the app sent to Slack broke a limit or was refused. */
export function assertSlackAccepted(h: Harness): void {
  assert.deepEqual(h.slack.rejected(), []);
  assert.deepEqual(
    h.slack.responses.filter((r) => !r.ok).map((r) => r.error),
    [],
  );
}
