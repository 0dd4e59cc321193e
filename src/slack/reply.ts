import type { RespondFn, types, webApi } from '@slack/bolt';
import type { Logger } from '../log.js';
import { MAX_MESSAGE_TEXT } from './text/limits.js';
import { truncate } from './text/truncate.js';
import { fitBlocks } from './views/fit-blocks.js';

export type Block = types.KnownBlock;

/** A message as our view builders produce it: `text` is the notification/fallback text. */
export interface SlackMessage {
  text: string;
  blocks?: Block[];
}

/**
 * How a handler answers. `privately` is seen only by the person who acted; `publicly` is posted in
 * the channel for everyone (announcements of changes). Both go through the interaction's
 * response_url when it has one (no channel membership needed, works in private channels and DMs),
 * otherwise through chat.postEphemeral / chat.postMessage.
 */
export interface Reply {
  privately(message: SlackMessage, options?: { replaceOriginal?: boolean }): Promise<void>;
  publicly(message: SlackMessage): Promise<void>;
}

export interface ReplyTarget {
  respond?: RespondFn | undefined;
  client: webApi.WebClient;
  userId: string;
  channelId?: string | undefined;
  logger: Logger;
}

export function createReply(target: ReplyTarget): Reply {
  const { respond, client, userId, channelId } = target;
  const fit = (message: SlackMessage) => ({
    text: truncate(message.text, MAX_MESSAGE_TEXT, { keep: 'start' }),
    ...(message.blocks ? { blocks: fitBlocks(message.blocks) } : {}),
  });
  return {
    async privately(message, options) {
      if (respond) {
        await respond({
          response_type: 'ephemeral',
          replace_original: options?.replaceOriginal ?? false,
          ...fit(message),
        });
      } else if (channelId && !channelId.startsWith('D')) {
        await client.chat.postEphemeral({ channel: channelId, user: userId, ...fit(message) });
      } else {
        // No channel (App Home, a modal): the app's own DM with the user.
        await client.chat.postMessage({ channel: userId, ...fit(message) });
      }
    },
    async publicly(message) {
      if (respond) {
        await respond({ response_type: 'in_channel', replace_original: false, ...fit(message) });
      } else if (channelId) {
        await client.chat.postMessage({ channel: channelId, ...fit(message) });
      }
    },
  };
}
