import type { Directory } from './directory.js';
import type { Identity } from './identity.js';
import type { MessageStore } from './messages.js';
import type { Outcome } from './outcome.js';
import type { RateTier } from './rate-limits.js';
import type { Json } from './types.js';
import type { TriggerRegistry, ViewStore } from './views.js';

/** The state every method handler works on. */
export interface FakeContext {
  ids: Identity;
  now(): number;
  messages: MessageStore;
  views: ViewStore;
  triggers: TriggerRegistry;
  directory: Directory;
  /** A fresh single-use Socket Mode URL (apps.connections.open). */
  socketUrl(): string;
}

export interface MethodSpec {
  tier: RateTier;
  /** Which token the method takes: the bot token, or the app-level token. */
  token: 'bot' | 'app';
  handle(args: Json, ctx: FakeContext): Outcome;
}
