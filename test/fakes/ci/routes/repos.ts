/** Repositories, repository keys and hooks (spec 4.8, 4.12, 4.13). */
import { ensureWritable, findRepo, requireUser, visibleRepo } from '../auth.js';
import {
  asBool,
  asRecord,
  bodyObject,
  type Ctx,
  halt,
  idList,
  json,
  notFound,
  queryList,
  v2Error,
} from '../http.js';
import type { RepoRecord } from '../records.js';
import { REQUIRED, type Route, route } from '../router.js';
import { hookJson, repoJson } from '../serialize.js';

const FILTERS = ['member', 'owner_name', 'slug', 'search', 'active'] as const;
const RECENT_LIMIT = 25;

function listRepos(ctx: Ctx) {
  const { query, state } = ctx;
  const ids = idList(queryList(query, 'ids'), 'ids');
  const used = FILTERS.filter((name) => query.has(name));
  if (ids && used.length > 0) {
    return v2Error(400, 'invalid_parameters', 'ids cannot be combined with other parameters');
  }
  const visible = [...state.repos.values()].filter((repo) => state.can(ctx.user, repo, 'read'));
  if (ids) return reposReply(ids.flatMap((id) => visible.filter((repo) => repo.id === id)));
  if (used.length === 0) {
    // Without parameters: the repositories with recent activity.
    const recent = visible.filter((repo) => repo.lastBuildId !== null).sort(byLastBuildStart);
    return reposReply(recent.slice(0, RECENT_LIMIT));
  }
  const member = query.get('member');
  const memberUser = member === null ? undefined : state.getUser(member);
  const search = query.get('search')?.toLowerCase();
  const matching = visible.filter(
    (repo) =>
      (member === null ||
        (memberUser !== undefined && state.permissionOf(memberUser.id, repo.id) !== undefined)) &&
      (!query.has('owner_name') || repo.ownerName === query.get('owner_name')) &&
      (!query.has('slug') || repo.slug === query.get('slug')) &&
      (search === undefined ||
        repo.slug.toLowerCase().includes(search) ||
        (repo.description ?? '').toLowerCase().includes(search)) &&
      (asBool(query.get('active')) !== true || repo.active),
  );
  return reposReply(matching.sort(byLastBuildStart));
}

function byLastBuildStart(a: RepoRecord, b: RepoRecord): number {
  return (b.lastBuildStartedAt ?? '').localeCompare(a.lastBuildStartedAt ?? '') || a.id - b.id;
}

function reposReply(repos: RepoRecord[]) {
  return json(200, { repos: repos.map(repoJson) });
}

function getRepo(ctx: Ctx) {
  return json(200, { repo: repoJson(visibleRepo(ctx, {})) });
}

function getKey(ctx: Ctx) {
  const key = ctx.state.keyOf(visibleRepo(ctx, {}));
  return json(200, { key: key.publicKeyPem, fingerprint: key.fingerprint });
}

/** A new key pair; everything encrypted with the old key becomes unreadable. */
function regenerateKey(ctx: Ctx) {
  const repo = findRepo(ctx, ctx.params.repo);
  ensureWritable(ctx, repo, 'admin', {});
  const key = ctx.state.regenerateKey(repo);
  return json(200, { key: key.publicKeyPem, fingerprint: key.fingerprint });
}

function listHooks(ctx: Ctx) {
  const user = requireUser(ctx);
  const repos = [...ctx.state.repos.values()].filter((repo) => ctx.state.can(user, repo, 'admin'));
  return json(200, { hooks: repos.sort((a, b) => a.slug.localeCompare(b.slug)).map(hookJson) });
}

/** `{hook: {id, active}}` on PUT /hooks, `{hook: {active}}` on PUT /hooks/{id}; active defaults to false. */
function updateHook(ctx: Ctx) {
  const hook = asRecord(bodyObject(ctx).hook) ?? {};
  const rawId = ctx.params.id ?? hook.id;
  const id = typeof rawId === 'number' ? String(rawId) : typeof rawId === 'string' ? rawId : undefined;
  if (id === undefined || !/^\d+$/.test(id)) halt(notFound());
  const repo = findRepo(ctx, id);
  ensureWritable(ctx, repo, 'admin', {});
  repo.active = asBool(hook.active) ?? false;
  return json(200, { result: true });
}

export const hookRoutes: Route[] = [
  route('GET', '/hooks', listHooks, REQUIRED),
  route('PUT', '/hooks', updateHook, REQUIRED),
  route('PUT', '/hooks/:id', updateHook, REQUIRED),
];

export const repoKeyRoutes: Route[] = [
  route('GET', '/repos/:repo/key', getKey),
  route('POST', '/repos/:repo/key', regenerateKey, REQUIRED),
];

/** Must come after every other `/repos/...` route: `:repo` alone would swallow `owner/name`-like paths. */
export const repoRoutes: Route[] = [route('GET', '/repos', listRepos), route('GET', '/repos/:repo', getRepo)];
