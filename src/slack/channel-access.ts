import type { webApi } from '@slack/bolt';

/**
 * Whether the app can post in a conversation with chat.postMessage (what notifications use,
 * unlike command answers, which go through response_url anywhere). Asked with conversations.info.
 */
export type ChannelAccess =
  | { ok: true }
  /** A channel the bot can see but is not a member of: `/invite` it. */
  | { ok: false; why: 'not_member' }
  | { ok: false; why: 'archived' }
  /** A private channel without the bot, or a direct message between other people. */
  | { ok: false; why: 'not_visible' };

export async function checkChannelAccess(
  client: webApi.WebClient,
  channelId: string,
): Promise<ChannelAccess> {
  let channel: { is_member?: boolean; is_archived?: boolean; is_im?: boolean } | undefined;
  try {
    channel = (await client.conversations.info({ channel: channelId })).channel;
  } catch (error) {
    if (slackErrorCode(error) === 'channel_not_found') return { ok: false, why: 'not_visible' };
    // Anything else (a scope the app lacks for this kind of conversation, Slack trouble) leaves
    // the question open: the subscription is kept, and the first post finds out.
    return { ok: true };
  }
  if (channel?.is_archived) return { ok: false, why: 'archived' };
  // A direct message the bot can see is one it is part of; only channels say is_member.
  if (!channel?.is_im && channel?.is_member === false) return { ok: false, why: 'not_member' };
  return { ok: true };
}

/** The `error` of a Slack Web API platform error (`ok: false`), e.g. `channel_not_found`. */
function slackErrorCode(error: unknown): string | undefined {
  if (typeof error !== 'object' || error === null || !('data' in error)) return undefined;
  const data = (error as { data: unknown }).data;
  if (typeof data !== 'object' || data === null || !('error' in data)) return undefined;
  const code = (data as { error: unknown }).error;
  return typeof code === 'string' ? code : undefined;
}
