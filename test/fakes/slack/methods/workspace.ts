import type { MethodSpec } from '../context.js';
import { boolArg, fail, missingArgument, ok, stringArg } from '../outcome.js';

const authTest: MethodSpec = {
  tier: 4,
  token: 'bot',
  handle(_args, ctx) {
    return ok({
      url: `https://${ctx.ids.teamDomain}.slack.com/`,
      team: ctx.ids.teamName,
      user: ctx.ids.botName,
      team_id: ctx.ids.teamId,
      user_id: ctx.ids.botUserId,
      bot_id: ctx.ids.botId,
      is_enterprise_install: false,
    });
  },
};

const conversationsInfo: MethodSpec = {
  tier: 3,
  token: 'bot',
  handle(args, ctx) {
    const id = stringArg(args, 'channel');
    if (id === undefined) return missingArgument('channel');
    const channel = ctx.directory.channel(id);
    return channel === undefined ? fail('channel_not_found') : ok({ channel });
  },
};

const conversationsOpen: MethodSpec = {
  tier: 3,
  token: 'bot',
  handle(args, ctx) {
    const users = (stringArg(args, 'users') ?? '').split(',').filter((u) => u !== '');
    const first = users[0];
    if (first === undefined) return fail('users_list_not_supplied');
    if (users.some((u) => ctx.directory.user(u) === undefined)) return fail('user_not_found');
    if (users.length > 1) return ok({ channel: { id: `G${users.map((u) => u.slice(1)).join('')}` } });
    const channelId = ctx.directory.dmChannelFor(first);
    if (!boolArg(args, 'return_im')) return ok({ channel: { id: channelId } });
    return ok({ channel: ctx.directory.channel(channelId) });
  },
};

const usersInfo: MethodSpec = {
  tier: 4,
  token: 'bot',
  handle(args, ctx) {
    const id = stringArg(args, 'user');
    if (id === undefined) return missingArgument('user');
    const user = ctx.directory.user(id);
    return user === undefined ? fail('user_not_found') : ok({ user });
  },
};

const connectionsOpen: MethodSpec = {
  // Tier 1 in Slack; left unlimited here so reconnect tests do not depend on the minute window.
  tier: 'none',
  token: 'app',
  handle(_args, ctx) {
    return ok({ url: ctx.socketUrl() });
  },
};

export const workspaceMethods: Record<string, MethodSpec> = {
  'auth.test': authTest,
  'conversations.info': conversationsInfo,
  'conversations.open': conversationsOpen,
  'users.info': usersInfo,
  'apps.connections.open': connectionsOpen,
};
