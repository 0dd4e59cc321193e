import { z } from 'zod';
import type { CiSession } from './client.js';
import {
  type Account,
  accountSchema,
  type Broadcast,
  broadcastSchema,
  type Permissions,
  permissionsSchema,
} from './schemas.js';

/** 4.3 GET /accounts — with `all`, also accounts the user is not admin of. */
export async function listAccounts(ci: CiSession, options: { all?: boolean } = {}): Promise<Account[]> {
  const answer = await ci.json(
    { method: 'GET', path: '/accounts', query: { all: options.all ? true : undefined }, requiresAuth: true },
    z.looseObject({ accounts: z.array(accountSchema) }),
  );
  return answer.accounts;
}

/** 4.5 GET /broadcasts */
export async function listBroadcasts(ci: CiSession): Promise<Broadcast[]> {
  const answer = await ci.json(
    { method: 'GET', path: '/broadcasts', requiresAuth: true },
    z.looseObject({ broadcasts: z.array(broadcastSchema) }),
  );
  return answer.broadcasts;
}

/** 4.11 GET /users/permissions — repository ids by access level. */
export async function getPermissions(ci: CiSession): Promise<Permissions> {
  return ci.json({ method: 'GET', path: '/users/permissions', requiresAuth: true }, permissionsSchema);
}
