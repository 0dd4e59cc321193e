import { z } from 'zod';
import type { DeploymentConfig } from '../config.js';
import type { CiSession } from './client.js';
import { pusherAuthSchema, type User, userSchema } from './schemas.js';

/** 4.2 / 4.18 GET /users — the user the token belongs to. */
export async function getCurrentUser(ci: CiSession): Promise<User> {
  const answer = await ci.json(
    { method: 'GET', path: '/users', requiresAuth: true },
    z.looseObject({ user: userSchema }),
  );
  return answer.user;
}

/** 4.2 POST /auth/github — exchanges a GitHub token for a CI token; the service keeps nothing of it. */
export async function exchangeGithubToken(ci: CiSession, githubToken: string): Promise<string> {
  const answer = await ci.json(
    { method: 'POST', path: '/auth/github', body: { json: { github_token: githubToken } } },
    z.looseObject({ access_token: z.string().min(1) }),
  );
  return answer.access_token;
}

/** 4.2 GET /auth/handshake — opened in a browser, so this only builds the address. */
export function handshakeUrl(deployment: DeploymentConfig, redirectUri?: string): string {
  const url = new URL(`${deployment.apiUrl}/auth/handshake`);
  if (redirectUri) url.searchParams.set('redirect_uri', redirectUri);
  return url.toString();
}

/** 4.2 GET /auth/post_message — loaded in a hidden frame of a safelisted site; address only. */
export function postMessageUrl(deployment: DeploymentConfig): string {
  return `${deployment.apiUrl}/auth/post_message`;
}

/**
 * POST /pusher/auth (real-service notes) — signs private realtime channels with the user's token.
 * Returns the auth string per channel the user may read; channels left out were refused.
 */
export async function authorizePusherChannels(
  ci: CiSession,
  socketId: string,
  channels: string[],
): Promise<Record<string, string>> {
  const answer = await ci.json(
    {
      method: 'POST',
      path: '/pusher/auth',
      requiresAuth: true,
      body: { json: { socket_id: socketId, channels } },
    },
    pusherAuthSchema,
  );
  return answer.channels;
}
