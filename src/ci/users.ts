import { z } from 'zod';
import type { CiSession } from './client.js';
import { idSegment } from './paths.js';
import { type User, userSchema } from './schemas.js';

/** 4.18 GET /users/{id} */
export async function getUser(ci: CiSession, userId: number): Promise<User> {
  const answer = await ci.json(
    { method: 'GET', path: `/users/${idSegment(userId, 'user id')}`, requiresAuth: true },
    z.looseObject({ user: userSchema }),
  );
  return answer.user;
}

/** 4.18 POST /users/sync — `conflict` (409) while a sync is already running. Never retried. */
export async function syncUser(ci: CiSession): Promise<void> {
  await ci.send({ method: 'POST', path: '/users/sync', requiresAuth: true });
}
