import assert from 'node:assert/strict';

/** Reading the app's answers in end-to-end tests of builds and jobs. */

type Json = Record<string, unknown>;

export interface FoundElement {
  action_id: string;
  type: string;
  value?: string;
  options?: { value: string; text: { text: string } }[];
  confirm?: unknown;
}

function elementsOf(message: Json): FoundElement[] {
  const found: FoundElement[] = [];
  const blocks = Array.isArray(message.blocks) ? (message.blocks as Json[]) : [];
  for (const block of blocks) {
    const candidates = [
      ...(Array.isArray(block.elements) ? (block.elements as Json[]) : []),
      ...(block.accessory ? [block.accessory as Json] : []),
    ];
    for (const element of candidates) {
      if (typeof element.action_id === 'string') found.push(element as unknown as FoundElement);
    }
  }
  return found;
}

/** The first interactive element whose action_id is `id` or starts with `id:`. */
export function element(message: Json, id: string): FoundElement {
  const found = elementsOf(message).find((e) => e.action_id === id || e.action_id.startsWith(`${id}:`));
  assert.ok(found, `no element ${id} in ${JSON.stringify(message.blocks)}`);
  return found;
}

export function hasElement(message: Json, id: string): boolean {
  return elementsOf(message).some((e) => e.action_id === id || e.action_id.startsWith(`${id}:`));
}

/** The mrkdwn and plain texts a reader sees, one per line. */
export function readable(message: Json): string {
  const texts: string[] = typeof message.text === 'string' ? [message.text] : [];
  const walk = (v: unknown): void => {
    if (Array.isArray(v)) v.forEach(walk);
    else if (typeof v === 'object' && v !== null) {
      const record = v as Json;
      if ((record.type === 'mrkdwn' || record.type === 'plain_text') && typeof record.text === 'string') {
        texts.push(record.text);
      } else Object.values(record).forEach(walk);
    }
  };
  walk(message.blocks);
  return texts.join('\n');
}
