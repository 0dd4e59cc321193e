import type { MessageVersion, StoredMessage } from './types.js';

export type NewMessage = Omit<StoredMessage, 'ts' | 'history'>;
export interface MessageChange {
  text?: string;
  blocks?: unknown[];
  attachments?: unknown[];
}

/** Messages the app posted, per channel, with Slack-like `ts` values: unique and increasing. */
export class MessageStore {
  private readonly byChannel = new Map<string, StoredMessage[]>();
  private lastMicros = 0;

  constructor(private readonly now: () => number) {}

  /** `seconds.micros` of the clock, bumped by one microsecond when two messages share an instant. */
  nextTs(): string {
    const micros = Math.max(Math.floor(this.now() * 1000), this.lastMicros + 1);
    this.lastMicros = micros;
    return `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`;
  }

  add(message: NewMessage): StoredMessage {
    const stored: StoredMessage = { ...message, ts: this.nextTs(), history: [] };
    const list = this.byChannel.get(message.channel) ?? [];
    list.push(stored);
    this.byChannel.set(message.channel, list);
    return stored;
  }

  find(channel: string, ts: string): StoredMessage | undefined {
    return this.byChannel.get(channel)?.find((m) => m.ts === ts);
  }

  /** Applies an edit; fields left out keep their value, as chat.update does. */
  edit(
    channel: string,
    ts: string,
    change: MessageChange,
    replacedBy: MessageVersion['replacedBy'],
  ): StoredMessage | undefined {
    const message = this.find(channel, ts);
    if (message === undefined) return undefined;
    const previous: MessageVersion = { text: message.text, replacedAt: this.now(), replacedBy };
    if (message.blocks !== undefined) previous.blocks = message.blocks;
    if (message.attachments !== undefined) previous.attachments = message.attachments;
    message.history.push(previous);
    if (change.text !== undefined) message.text = change.text;
    if (change.blocks !== undefined) message.blocks = change.blocks;
    if (change.attachments !== undefined) message.attachments = change.attachments;
    return message;
  }

  remove(channel: string, ts: string): boolean {
    const list = this.byChannel.get(channel) ?? [];
    const index = list.findIndex((m) => m.ts === ts);
    if (index < 0) return false;
    list.splice(index, 1);
    return true;
  }

  /** Copies, so a test cannot change the fake's state by accident. */
  list(channel: string): StoredMessage[] {
    return structuredClone(this.byChannel.get(channel) ?? []);
  }

  clear(): void {
    this.byChannel.clear();
  }
}
