import assert from 'node:assert/strict';
import type { Harness } from '../../helpers/app-harness.js';

/** Helpers shared by the repository command tests. */

export type Message = Record<string, unknown>;

interface Element {
  type?: string;
  action_id?: string;
  value?: string;
  confirm?: { title?: { text?: string }; text?: { text?: string }; confirm?: { text?: string } };
}

/** The text a reader sees (text objects only, not button values): where an injection would act. */
export function shownText(message: Message): string {
  const parts: string[] = [String(message.text ?? '')];
  const walk = (value: unknown): void => {
    if (Array.isArray(value)) value.forEach(walk);
    else if (typeof value === 'object' && value !== null) {
      const record = value as Record<string, unknown>;
      if ((record.type === 'mrkdwn' || record.type === 'plain_text') && typeof record.text === 'string') {
        parts.push(record.text);
      }
      Object.values(record).forEach(walk);
    }
  };
  walk(message.blocks ?? []);
  return parts.join('\n');
}

/** Every interactive element (buttons, accessories) of a message or view, in order. */
export function elementsOf(message: Message): Element[] {
  const blocks = (message.blocks ?? []) as Array<Record<string, unknown>>;
  const found: Element[] = [];
  for (const block of blocks) {
    if (Array.isArray(block.elements) && block.type === 'actions')
      found.push(...(block.elements as Element[]));
    if (block.accessory) found.push(block.accessory as Element);
  }
  return found;
}

/** The first button whose action_id is `id` or `id:<suffix>`. */
export function buttonOf(message: Message, id: string): Element {
  const button = elementsOf(message).find((e) => e.action_id === id || e.action_id?.startsWith(`${id}:`));
  assert.ok(button, `no ${id} button in ${JSON.stringify(message.blocks)}`);
  return button;
}

/** Nothing the app sent was refused by the fake Slack: Web API calls and response_url posts. */
export function assertNothingRejected(h: Harness): void {
  assert.deepEqual(h.slack.rejected(), []);
  assert.deepEqual(
    h.slack.responses.filter((r) => !r.ok),
    [],
  );
}

/** The number of requests the fake CI has seen so far (to check that none were sent). */
export function ciRequestCount(h: Harness): number {
  return h.ci.requests.length;
}

/** The view that views.open (after `since` calls) put up, with its id. */
export async function openedView(h: Harness, since = 0): Promise<{ id: string; view: Message }> {
  const call = await h.slack.waitForCall('views.open', (c) => h.slack.calls.indexOf(c) >= since);
  assert.equal(call.ok, true, `views.open failed: ${call.error}`);
  const view = call.response.view as Message;
  return { id: String(view.id), view };
}

/** A views.update of view `id` (after `since` calls) whose content matches `pattern`. */
export async function viewUpdate(h: Harness, id: string, pattern: RegExp, timeoutMs = 5_000, since = 0) {
  const call = await h.slack.waitForCall(
    'views.update',
    (c) =>
      c.args.view_id === id && pattern.test(JSON.stringify(c.args.view)) && h.slack.calls.indexOf(c) >= since,
    timeoutMs,
  );
  assert.equal(call.ok, true, `views.update failed: ${call.error}`);
  return call.args.view as Message;
}
