import { SlackOutboxError } from '../slack/outbox/index.js';
import { StoreUnavailableError } from '../store/kv.js';

/**
 * What a failed notification call means for the notifier:
 * - `channel_gone`: the app cannot post there any more (removed, channel deleted or archived):
 *   the channel's subscriptions pause, since there is nowhere to tell anyone;
 * - `message_gone`: the parent message was deleted; it is not posted again;
 * - `transient`: Slack or Redis could not be reached (after the outbox's own retries): retried
 *   later, so a final state is never lost;
 * - `posting_elsewhere`: another replica is posting the message (see PostingElsewhereError);
 * - `refused`: Slack refused the content (a bug of ours); logged, not retried.
 */
export type DeliveryFailure = 'channel_gone' | 'message_gone' | 'transient' | 'posting_elsewhere' | 'refused';

/**
 * Another replica claimed the slot and its message is not there yet: looked at again later, so
 * that a replica that died between claiming and posting (its claim lapses) cannot swallow the
 * notification.
 */
export class PostingElsewhereError extends Error {
  override readonly name = 'PostingElsewhereError';
  readonly code = 'posting_elsewhere';
}

const CHANNEL_GONE = new Set(['channel_not_found', 'not_in_channel', 'is_archived', 'restricted_action']);
const MESSAGE_GONE = new Set(['message_not_found', 'cant_update_message', 'edit_window_closed']);
/** Local outbox refusals that another try can overcome (a full queue, a process shutting down). */
const LOCAL_TRANSIENT = new Set(['queue_full', 'outbox_closed', 'ratelimited']);

export function classifyDeliveryFailure(error: unknown): DeliveryFailure | undefined {
  if (error instanceof PostingElsewhereError) return 'posting_elsewhere';
  if (error instanceof StoreUnavailableError) return 'transient';
  if (!(error instanceof SlackOutboxError)) return undefined;
  if (CHANNEL_GONE.has(error.code)) return 'channel_gone';
  if (MESSAGE_GONE.has(error.code)) return 'message_gone';
  if (error.data.transient || LOCAL_TRANSIENT.has(error.code)) return 'transient';
  return 'refused';
}
