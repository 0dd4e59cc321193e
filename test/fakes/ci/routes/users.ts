/** Users, permissions, sync, accounts and broadcasts (spec 4.2, 4.3, 4.5, 4.11, 4.18). */
import { requireUser } from '../auth.js';
import { asBool, type Ctx, json, notFound, pathId } from '../http.js';
import { REQUIRED, type Route, route } from '../router.js';
import { accountJson, userJson } from '../serialize.js';

function currentUser(ctx: Ctx) {
  return json(200, { user: userJson(requireUser(ctx)) });
}

/** Only the caller's own record can be read. */
function userById(ctx: Ctx) {
  const user = requireUser(ctx);
  return pathId(ctx) === user.id ? json(200, { user: userJson(user) }) : notFound();
}

function permissions(ctx: Ctx) {
  const user = requireUser(ctx);
  return json(200, {
    permissions: ctx.state.repoIdsWith(user.id, 'pull'),
    admin: ctx.state.repoIdsWith(user.id, 'admin'),
    pull: ctx.state.repoIdsWith(user.id, 'pull'),
    push: ctx.state.repoIdsWith(user.id, 'push'),
  });
}

/** 409 while a sync runs (the real body is `{message}`); otherwise `{result: true}`. */
function sync(ctx: Ctx) {
  const user = requireUser(ctx);
  if (!ctx.state.startSync(user)) return json(409, { message: 'Sync already in progress. Try again later.' });
  return json(200, { result: true });
}

function accounts(ctx: Ctx) {
  const user = requireUser(ctx);
  const all = asBool(ctx.query.get('all')) ?? false;
  return json(200, {
    accounts: ctx.state
      .accountsFor(user, all)
      .map((account) => accountJson(account, ctx.state.reposCountOf(account), ctx.options.deployment)),
  });
}

function broadcasts(ctx: Ctx) {
  return json(200, {
    broadcasts: [...ctx.state.broadcasts.values()].map((b) => ({ id: b.id, message: b.message })),
  });
}

export const userRoutes: Route[] = [
  route('GET', '/users', currentUser, REQUIRED),
  route('GET', '/users/permissions', permissions, REQUIRED),
  route('GET', '/users/:id', userById, REQUIRED),
  route('POST', '/users/sync', sync, REQUIRED),
  route('GET', '/accounts', accounts, REQUIRED),
  route('GET', '/broadcasts', broadcasts, REQUIRED),
];
