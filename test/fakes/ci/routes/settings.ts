/**
 * Repository settings, custom SSH key and caches (spec 4.7, 4.15, 4.17). Reads need push access,
 * writes admin access.
 */
import { ensurePermission, ensureWritable, findRepo } from '../auth.js';
import {
  asRecord,
  asString,
  bodyObject,
  type Ctx,
  halt,
  json,
  notFound,
  pathId,
  type Reply,
} from '../http.js';
import { DEFAULT_SETTINGS, type RepoRecord, type SettingsRecord } from '../records.js';
import { REQUIRED, type Route, route } from '../router.js';
import { cacheJson } from '../serialize.js';

/** The real service's validation answer. */
export function validationFailed(field: string, code: string): Reply {
  return json(422, { message: 'Validation failed', errors: [{ field, code }] });
}

function repoById(ctx: Ctx): RepoRecord {
  return findRepo(ctx, String(pathId(ctx)));
}

function getSettings(ctx: Ctx): Reply {
  const repo = repoById(ctx);
  ensurePermission(ctx, repo, 'push', {});
  return json(200, { settings: ctx.state.getSettings(repo) });
}

/** Known keys only; booleans stay booleans and maximum_number_of_builds a whole number ≥ 0. */
function patchSettings(ctx: Ctx): Reply {
  const repo = repoById(ctx);
  ensureWritable(ctx, repo, 'admin', {});
  const changes = asRecord(bodyObject(ctx).settings) ?? {};
  const patch: SettingsRecord = {};
  for (const [name, value] of Object.entries(changes)) {
    const current = DEFAULT_SETTINGS[name];
    if (current === undefined) return validationFailed(name, 'unknown_setting');
    if (typeof current === 'boolean') {
      if (typeof value !== 'boolean') return validationFailed(name, 'invalid');
      patch[name] = value;
    } else {
      if (typeof value !== 'number' || !Number.isInteger(value) || value < 0)
        return validationFailed(name, 'invalid');
      patch[name] = value;
    }
  }
  return json(200, { settings: ctx.state.updateSettings(repo, patch) });
}

function sshKeyJson(repoId: number, description: string, fingerprint: string) {
  return { ssh_key: { id: repoId, description, fingerprint } };
}

function getSshKey(ctx: Ctx): Reply {
  const repo = repoById(ctx);
  ensurePermission(ctx, repo, 'push', {});
  const key = ctx.state.sshKeys.get(repo.id) ?? halt(notFound());
  return json(200, sshKeyJson(repo.id, key.description, key.fingerprint));
}

/** Creates or replaces the key; `value` (a private key) is required. */
function patchSshKey(ctx: Ctx): Reply {
  const repo = repoById(ctx);
  ensureWritable(ctx, repo, 'admin', {});
  const input = asRecord(bodyObject(ctx).ssh_key) ?? {};
  const value = asString(input.value);
  if (!value) return validationFailed('value', 'missing_field');
  const description = asString(input.description);
  try {
    const key = ctx.state.setSshKey(repo, { value, description });
    return json(200, sshKeyJson(repo.id, key.description, key.fingerprint));
  } catch {
    return validationFailed('value', 'not_a_private_key');
  }
}

function deleteSshKey(ctx: Ctx): Reply {
  const repo = repoById(ctx);
  ensureWritable(ctx, repo, 'admin', {});
  const key = ctx.state.sshKeys.get(repo.id) ?? halt(notFound());
  ctx.state.sshKeys.delete(repo.id);
  return json(200, sshKeyJson(repo.id, key.description, key.fingerprint));
}

function cacheFilter(ctx: Ctx) {
  return { branch: ctx.query.get('branch') ?? undefined, match: ctx.query.get('match') ?? undefined };
}

function listCaches(ctx: Ctx): Reply {
  const repo = findRepo(ctx, ctx.params.repo);
  ensurePermission(ctx, repo, 'push', { caches: [] });
  return json(200, { caches: ctx.state.cachesOf(repo.id, cacheFilter(ctx)).map(cacheJson) });
}

function deleteCaches(ctx: Ctx): Reply {
  const repo = findRepo(ctx, ctx.params.repo);
  ensureWritable(ctx, repo, 'admin', { caches: [] });
  return json(200, { caches: ctx.state.deleteCaches(repo.id, cacheFilter(ctx)).map(cacheJson) });
}

export const settingsRoutes: Route[] = [
  route('GET', '/repos/:id/settings', getSettings, REQUIRED),
  route('PATCH', '/repos/:id/settings', patchSettings, REQUIRED),
  route('GET', '/settings/ssh_key/:id', getSshKey, REQUIRED),
  route('PATCH', '/settings/ssh_key/:id', patchSshKey, REQUIRED),
  route('DELETE', '/settings/ssh_key/:id', deleteSshKey, REQUIRED),
  route('GET', '/repos/:repo/caches', listCaches, REQUIRED),
  route('DELETE', '/repos/:repo/caches', deleteCaches, REQUIRED),
];
