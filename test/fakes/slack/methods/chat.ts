import { BLOCK_LIMITS, blocksTextLength, checkBlocks, formatProblem } from '../block-kit.js';
import type { FakeContext, MethodSpec } from '../context.js';
import { checkMessageContent } from '../message-content.js';
import {
  fail,
  failWithMessages,
  isRecord,
  missingArgument,
  type Outcome,
  ok,
  stringArg,
} from '../outcome.js';
import type { Json, StoredMessage } from '../types.js';

const TS_FORMAT = /^\d+\.\d+$/;

type ChannelCheck = { ok: true; channel: string } | { ok: false; outcome: Outcome };

/** Where a message may go: a channel the bot is in, or a user (their DM with the bot). */
function postableChannel(ctx: FakeContext, channelArg: string | undefined): ChannelCheck {
  if (channelArg === undefined || channelArg === '') return { ok: false, outcome: fail('channel_not_found') };
  const channelId = ctx.directory.isUserId(channelArg) ? ctx.directory.dmChannelFor(channelArg) : channelArg;
  const channel = ctx.directory.channel(channelId);
  if (channel === undefined) return { ok: false, outcome: fail('channel_not_found') };
  if (channel.is_archived === true) return { ok: false, outcome: fail('is_archived') };
  if (channel.is_member === false) return { ok: false, outcome: fail('not_in_channel') };
  return { ok: true, channel: channelId };
}

export function messageJson(ctx: FakeContext, message: StoredMessage): Json {
  return {
    type: 'message',
    text: message.text,
    user: message.user,
    bot_id: message.bot_id,
    app_id: ctx.ids.appId,
    team: ctx.ids.teamId,
    ts: message.ts,
    thread_ts: message.thread_ts,
    blocks: message.blocks,
    attachments: message.attachments,
    metadata: message.metadata,
    edited: message.history.length > 0 ? { user: message.user, ts: message.ts } : undefined,
  };
}

const postMessage: MethodSpec = {
  tier: 'per-channel',
  token: 'bot',
  handle(args, ctx) {
    const target = postableChannel(ctx, stringArg(args, 'channel'));
    if (!target.ok) return target.outcome;
    const threadTs = stringArg(args, 'thread_ts');
    if (threadTs !== undefined && threadTs !== '' && !TS_FORMAT.test(threadTs))
      return fail('invalid_thread_ts');
    const checked = checkMessageContent(args);
    if (!checked.ok) return checked.outcome;
    const { content } = checked;
    const stored = ctx.messages.add({
      channel: target.channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      text: content.text ?? '',
      ...(content.blocks ? { blocks: content.blocks } : {}),
      ...(content.attachments ? { attachments: content.attachments } : {}),
      ...(args.metadata !== undefined ? { metadata: args.metadata } : {}),
      user: ctx.ids.botUserId,
      bot_id: ctx.ids.botId,
      truncated: content.truncated,
    });
    return {
      ...ok({ channel: target.channel, ts: stored.ts, message: messageJson(ctx, stored) }),
      truncated: content.truncated,
    };
  },
};

const update: MethodSpec = {
  tier: 3,
  token: 'bot',
  handle(args, ctx) {
    const channel = stringArg(args, 'channel');
    const ts = stringArg(args, 'ts');
    if (channel === undefined || ctx.directory.channel(channel) === undefined)
      return fail('channel_not_found');
    if (ts === undefined || ctx.messages.find(channel, ts) === undefined) return fail('message_not_found');
    const checked = checkMessageContent(args);
    if (!checked.ok) return checked.outcome;
    const { content } = checked;
    const edited = ctx.messages.edit(channel, ts, content, 'chat.update');
    if (edited === undefined) return fail('message_not_found');
    return {
      ...ok({ channel, ts, text: edited.text, message: messageJson(ctx, edited) }),
      truncated: content.truncated,
    };
  },
};

const postEphemeral: MethodSpec = {
  tier: 4,
  token: 'bot',
  handle(args, ctx) {
    const target = postableChannel(ctx, stringArg(args, 'channel'));
    if (!target.ok) return target.outcome;
    const user = stringArg(args, 'user');
    if (user === undefined) return missingArgument('user');
    if (ctx.directory.user(user) === undefined) return fail('user_not_found');
    const checked = checkMessageContent(args);
    if (!checked.ok) return checked.outcome;
    return { ...ok({ message_ts: ctx.messages.nextTs() }), truncated: checked.content.truncated };
  },
};

const deleteMessage: MethodSpec = {
  tier: 3,
  token: 'bot',
  handle(args, ctx) {
    const channel = stringArg(args, 'channel');
    const ts = stringArg(args, 'ts');
    if (channel === undefined || ctx.directory.channel(channel) === undefined)
      return fail('channel_not_found');
    if (ts === undefined || !ctx.messages.remove(channel, ts)) return fail('message_not_found');
    return ok({ channel, ts });
  },
};

const unfurl: MethodSpec = {
  tier: 3,
  token: 'bot',
  handle(args) {
    const bySource = stringArg(args, 'source') !== undefined && stringArg(args, 'unfurl_id') !== undefined;
    if (!bySource) {
      if (stringArg(args, 'channel') === undefined) return missingArgument('channel');
      if (stringArg(args, 'ts') === undefined) return missingArgument('ts');
    }
    const { unfurls } = args;
    if (!isRecord(unfurls)) return fail('invalid_unfurls_format');
    const problems: string[] = [];
    for (const [url, preview] of Object.entries(unfurls)) {
      if (!isRecord(preview)) {
        problems.push(`must be an object [json-pointer:/unfurls/${url}]`);
      } else if (preview.blocks !== undefined) {
        const pointer = `/unfurls/${url}/blocks`;
        problems.push(...checkBlocks(preview.blocks, 'message', pointer).map(formatProblem));
        if (blocksTextLength(preview.blocks) > BLOCK_LIMITS.messageBlocksText)
          return fail('msg_blocks_too_long');
      }
    }
    if (problems.length > 0) return failWithMessages('invalid_blocks', problems, { errors: problems });
    return ok();
  },
};

const getPermalink: MethodSpec = {
  tier: 4,
  token: 'bot',
  handle(args, ctx) {
    const channel = stringArg(args, 'channel');
    const ts = stringArg(args, 'message_ts');
    if (channel === undefined || ctx.directory.channel(channel) === undefined)
      return fail('channel_not_found');
    if (ts === undefined || !TS_FORMAT.test(ts)) return fail('message_not_found');
    const base = `https://${ctx.ids.teamDomain}.slack.com/archives/${channel}/p${ts.replace('.', '')}`;
    const threadTs = ctx.messages.find(channel, ts)?.thread_ts;
    const permalink = threadTs === undefined ? base : `${base}?thread_ts=${threadTs}&cid=${channel}`;
    return ok({ channel, permalink });
  },
};

export const chatMethods: Record<string, MethodSpec> = {
  'chat.postMessage': postMessage,
  'chat.update': update,
  'chat.postEphemeral': postEphemeral,
  'chat.delete': deleteMessage,
  'chat.unfurl': unfurl,
  'chat.getPermalink': getPermalink,
};
