import type { Logger } from '../../log.js';
import type { Services } from '../../services.js';
import type { ChangeDetector } from './change-detector.js';
import type { TokenPicker } from './tokens.js';

/** Why the watcher sent a CI request (metrics and stats count them per purpose). */
export type WatchPurpose = 'poll' | 'realtime_resolve' | 'owner_refresh' | 'identity';
export const WATCH_PURPOSES: readonly WatchPurpose[] = [
  'poll',
  'realtime_resolve',
  'owner_refresh',
  'identity',
];

/** What the parts of the watcher share. */
export interface WatchContext {
  services: Services;
  logger: Logger;
  detector: ChangeDetector;
  tokens: TokenPicker;
  /** Counts one CI request of the watcher. */
  count(purpose: WatchPurpose): void;
  seenTtlMs: number;
}
