/**
 * Who is calling and what they may do, with the V2.1 answers of spec section 7: no token on a
 * Required operation → 401; a private repository without token → `privateUnauthenticatedStatus`;
 * with a token but no access → `privateNoAccess` (400, or 200 with the route's empty body).
 */
import { fixture } from './fixtures.js';
import { type Ctx, halt, json, notFound, type Reply, v2Error } from './http.js';
import type { Permission, RepoRecord, UserRecord } from './records.js';
import type { FakeCiState } from './state.js';

const MIGRATED_REPOSITORY = fixture('travisapi_v2_error_migrated_repository.json');

export type TokenLookup = { kind: 'none' } | { kind: 'valid'; user: UserRecord } | { kind: 'invalid' };

/** Reads `Authorization: token <T>`; anything else in the header counts as an invalid token. */
export function lookUpToken(state: FakeCiState, authorization: string | undefined): TokenLookup {
  if (authorization === undefined) return { kind: 'none' };
  const match = /^token\s+(\S+)\s*$/i.exec(authorization);
  const user = match?.[1] === undefined ? undefined : state.userByToken(match[1]);
  return user ? { kind: 'valid', user } : { kind: 'invalid' };
}

export const unauthenticated = (): Reply => v2Error(401, 'login_required', 'login required');
export const invalidToken = (): Reply =>
  v2Error(401, 'invalid_token', 'access denied: the token is not valid');

export function requireUser(ctx: Ctx): UserRecord {
  return ctx.user ?? halt(unauthenticated());
}

/** A repository by id (digits) or slug; 404 when there is none. */
export function findRepo(ctx: Ctx, ref: string | undefined): RepoRecord {
  if (ref === undefined || ref === '') halt(notFound());
  const repo = ctx.state.getRepo(/^\d+$/.test(ref) ? Number(ref) : ref);
  return repo ?? halt(notFound());
}

/** Ends the request unless the caller may see the repository. `emptyBody` is the empty200 answer. */
export function ensureVisible(ctx: Ctx, repo: RepoRecord, emptyBody: unknown): void {
  if (ctx.state.can(ctx.user, repo, 'read')) return;
  if (!ctx.user) halt(ctx.options.privateUnauthenticatedStatus === 401 ? unauthenticated() : notFound());
  halt(
    ctx.options.privateNoAccess === 'status400'
      ? v2Error(400, 'no_access', 'You do not have access to this repository.')
      : json(200, emptyBody),
  );
}

/** The repository named by the path parameter `repo`, checked for visibility. */
export function visibleRepo(ctx: Ctx, emptyBody: unknown, param = 'repo'): RepoRecord {
  const repo = findRepo(ctx, ctx.params[param]);
  ensureVisible(ctx, repo, emptyBody);
  return repo;
}

const insufficient = (level: Permission) =>
  v2Error(403, 'insufficient_access', `operation requires ${level} access to repository`);

/** A token, visibility, then `level` on the repository (403 `denied`, by default insufficient_access). */
export function ensurePermission(
  ctx: Ctx,
  repo: RepoRecord,
  level: Permission,
  emptyBody: unknown,
  denied?: Reply,
): UserRecord {
  const user = requireUser(ctx);
  ensureVisible(ctx, repo, emptyBody);
  if (!ctx.state.can(user, repo, level)) halt(denied ?? insufficient(level));
  return user;
}

/** `ensurePermission` for a write, which on the wound-down deployment a migrated repository refuses. */
export function ensureWritable(
  ctx: Ctx,
  repo: RepoRecord,
  level: Permission,
  emptyBody: unknown,
  denied?: Reply,
): UserRecord {
  requireUser(ctx);
  ensureVisible(ctx, repo, emptyBody);
  if (ctx.options.deployment === 'org' && repo.migrated) halt(json(403, MIGRATED_REPOSITORY));
  return ensurePermission(ctx, repo, level, emptyBody, denied);
}
