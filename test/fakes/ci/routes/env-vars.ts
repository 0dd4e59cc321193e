/**
 * Environment variables (spec 4.16) under both `/settings/env_vars` and `/repos/settings/env_vars`.
 * Values of private variables never leave the fake. Reads need push access, writes admin access.
 */
import { ensurePermission, ensureWritable, findRepo } from '../auth.js';
import {
  asBool,
  asRecord,
  asString,
  bodyObject,
  type Ctx,
  halt,
  json,
  notFound,
  type Reply,
  v2Error,
} from '../http.js';
import type { EnvVarRecord, RepoRecord } from '../records.js';
import { REQUIRED, type Route, route } from '../router.js';
import { envVarJson } from '../serialize.js';
import { validationFailed } from './settings.js';

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function repoFromQuery(ctx: Ctx): RepoRecord {
  const id = ctx.query.get('repository_id');
  if (id === null || !/^\d+$/.test(id)) halt(v2Error(400, 'missing_parameters', 'repository_id is required'));
  return findRepo(ctx, id);
}

/** The variable of the path; `repository_id`, when given, must name its repository. */
function envVarOfPath(ctx: Ctx): { envVar: EnvVarRecord; repo: RepoRecord } {
  const envVar = ctx.state.envVars.get(ctx.params.id ?? '') ?? halt(notFound());
  const given = ctx.query.get('repository_id');
  if (given !== null && given !== String(envVar.repositoryId)) halt(notFound());
  const repo = ctx.state.getRepo(envVar.repositoryId) ?? halt(notFound());
  return { envVar, repo };
}

function listEnvVars(ctx: Ctx): Reply {
  const repo = repoFromQuery(ctx);
  ensurePermission(ctx, repo, 'push', { env_vars: [] });
  return json(200, { env_vars: ctx.state.envVarsOf(repo.id).map(envVarJson) });
}

function getEnvVar(ctx: Ctx): Reply {
  const { envVar, repo } = envVarOfPath(ctx);
  ensurePermission(ctx, repo, 'push', {});
  return json(200, { env_var: envVarJson(envVar) });
}

/** Checks `{env_var: {name, value, public}}`; `current` supplies what an update leaves out. */
function readInput(ctx: Ctx, repo: RepoRecord, current?: EnvVarRecord) {
  const input = asRecord(bodyObject(ctx).env_var) ?? {};
  const name = asString(input.name) ?? current?.name;
  const value = asString(input.value) ?? current?.value;
  const isPublic = asBool(input.public) ?? current?.public ?? false;
  if (!name) return validationFailed('name', 'missing_field');
  if (!NAME.test(name)) return validationFailed('name', 'invalid');
  if (value === undefined) return validationFailed('value', 'missing_field');
  const clash = ctx.state.envVarsOf(repo.id).some((v) => v.name === name && v.id !== current?.id);
  if (clash) return validationFailed('name', 'not_unique');
  return { name, value, public: isPublic };
}

function createEnvVar(ctx: Ctx): Reply {
  const repo = repoFromQuery(ctx);
  ensureWritable(ctx, repo, 'admin', {});
  const input = readInput(ctx, repo);
  if ('status' in input) return input;
  return json(200, { env_var: envVarJson(ctx.state.addEnvVar(repo, input)) });
}

function updateEnvVar(ctx: Ctx): Reply {
  const { envVar, repo } = envVarOfPath(ctx);
  ensureWritable(ctx, repo, 'admin', {});
  const input = readInput(ctx, repo, envVar);
  if ('status' in input) return input;
  Object.assign(envVar, input);
  return json(200, { env_var: envVarJson(envVar) });
}

function deleteEnvVar(ctx: Ctx): Reply {
  const { envVar, repo } = envVarOfPath(ctx);
  ensureWritable(ctx, repo, 'admin', {});
  ctx.state.envVars.delete(envVar.id);
  return json(200, { env_var: envVarJson(envVar) });
}

export const envVarRoutes: Route[] = ['/settings/env_vars', '/repos/settings/env_vars'].flatMap((base) => [
  route('GET', base, listEnvVars, REQUIRED),
  route('POST', base, createEnvVar, REQUIRED),
  route('GET', `${base}/:id`, getEnvVar, REQUIRED),
  route('PATCH', `${base}/:id`, updateEnvVar, REQUIRED),
  route('DELETE', `${base}/:id`, deleteEnvVar, REQUIRED),
]);
