/**
 * POST /pusher/auth: signs the private channels the caller may read with the standard Pusher
 * private-channel signature, `<key>:<hex HMAC-SHA256 of "<socket_id>:<channel>" with the secret>`.
 */
import { createHmac } from 'node:crypto';
import { requireUser } from '../auth.js';
import { asString, bodyObject, type Ctx, json, type Reply, v2Error } from '../http.js';
import type { UserRecord } from '../records.js';
import { REQUIRED, type Route, route } from '../router.js';

export function pusherSignature(secret: string, socketId: string, channel: string): string {
  return createHmac('sha256', secret).update(`${socketId}:${channel}`).digest('hex');
}

/** `private-user-<own id>`, `private-repo-<id>` and `private-job-<id>` of repositories the user can see. */
function mayRead(ctx: Ctx, user: UserRecord, channel: string): boolean {
  const match = /^private-(user|repo|job)-(\d+)$/.exec(channel);
  if (!match) return false;
  const id = Number(match[2]);
  if (match[1] === 'user') return id === user.id;
  const repoId = match[1] === 'repo' ? id : ctx.state.getJob(id)?.repositoryId;
  const repo = repoId === undefined ? undefined : ctx.state.getRepo(repoId);
  return repo !== undefined && ctx.state.can(user, repo, 'read');
}

/** Takes `{channels: [...], socket_id}` as JSON or form; a single `channel_name` works too. */
function auth(ctx: Ctx): Reply {
  const user = requireUser(ctx);
  const body = bodyObject(ctx);
  const socketId = asString(body.socket_id);
  const listed = Array.isArray(body.channels) ? body.channels : [body.channels ?? body.channel_name];
  const channels = listed.filter((c): c is string => typeof c === 'string');
  if (!socketId || channels.length === 0) {
    return v2Error(400, 'missing_parameters', 'socket_id and channels are required');
  }
  const { key, secret } = ctx.options.pusher;
  const signed: Record<string, string> = {};
  for (const channel of channels) {
    if (mayRead(ctx, user, channel)) signed[channel] = `${key}:${pusherSignature(secret, socketId, channel)}`;
  }
  if (Object.keys(signed).length === 0)
    return v2Error(403, 'forbidden', 'You may not read any of these channels.');
  return json(200, { channels: signed });
}

export const pusherRoutes: Route[] = [route('POST', '/pusher/auth', auth, REQUIRED)];
