import { z } from 'zod';
import type { CiSession } from './client.js';
import { badRequest } from './errors.js';
import { idSegment, requireRepoId } from './paths.js';
import {
  type EnvVar,
  envVarSchema,
  type RepoSettings,
  type SshKey,
  settingsSchema,
  sshKeySchema,
} from './schemas.js';

/** 4.15 GET /repos/{id}/settings — whatever keys the service returns. */
export async function getSettings(ci: CiSession, repositoryId: number): Promise<RepoSettings> {
  const answer = await ci.json(
    { method: 'GET', path: `/repos/${requireRepoId(repositoryId)}/settings`, requiresAuth: true },
    z.looseObject({ settings: settingsSchema }),
  );
  return answer.settings;
}

/** 4.15 PATCH /repos/{id}/settings — only the given settings change. */
export async function updateSettings(
  ci: CiSession,
  repositoryId: number,
  settings: Record<string, boolean | number | string>,
): Promise<RepoSettings | undefined> {
  const answer = await ci.send({
    method: 'PATCH',
    path: `/repos/${requireRepoId(repositoryId)}/settings`,
    requiresAuth: true,
    body: { json: { settings } },
  });
  const parsed = z.looseObject({ settings: settingsSchema }).safeParse(answer);
  return parsed.success ? parsed.data.settings : undefined;
}

const envVarList = z.looseObject({ env_vars: z.array(envVarSchema) });
const envVarOne = z.looseObject({ env_var: envVarSchema });

/** 4.16 GET /settings/env_vars or /repos/settings/env_vars (both list paths exist). Private values are omitted by the service. */
export async function listEnvVars(
  ci: CiSession,
  repositoryId: number,
  options: { path?: 'settings' | 'repos/settings' } = {},
): Promise<EnvVar[]> {
  const base = options.path ?? 'settings';
  const answer = await ci.json(
    {
      method: 'GET',
      path: `/${base}/env_vars`,
      query: { repository_id: requireRepoId(repositoryId) },
      requiresAuth: true,
    },
    envVarList,
  );
  return answer.env_vars;
}

/** 4.16 GET /repos/settings/env_vars/{id}?repository_id= */
export async function getEnvVar(ci: CiSession, repositoryId: number, envVarId: string): Promise<EnvVar> {
  const answer = await ci.json(
    {
      method: 'GET',
      path: `/repos/settings/env_vars/${envVarSegment(envVarId)}`,
      query: { repository_id: requireRepoId(repositoryId) },
      requiresAuth: true,
    },
    envVarOne,
  );
  return answer.env_var;
}

export interface NewEnvVar {
  name: string;
  value: string;
  public?: boolean;
}

/** 4.16 POST /repos/settings/env_vars?repository_id= — private unless `public`. */
export async function createEnvVar(ci: CiSession, repositoryId: number, envVar: NewEnvVar): Promise<EnvVar> {
  checkName(envVar.name);
  const answer = await ci.json(
    {
      method: 'POST',
      path: '/repos/settings/env_vars',
      query: { repository_id: requireRepoId(repositoryId) },
      requiresAuth: true,
      body: { json: { env_var: { name: envVar.name, value: envVar.value, public: envVar.public ?? false } } },
    },
    envVarOne,
  );
  return answer.env_var;
}

/** 4.16 PATCH /repos/settings/env_vars/{id} — omitted fields keep their value. */
export async function updateEnvVar(
  ci: CiSession,
  repositoryId: number,
  envVarId: string,
  changes: Partial<NewEnvVar>,
): Promise<EnvVar> {
  if (changes.name !== undefined) checkName(changes.name);
  const answer = await ci.json(
    {
      method: 'PATCH',
      path: `/repos/settings/env_vars/${envVarSegment(envVarId)}`,
      query: { repository_id: requireRepoId(repositoryId) },
      requiresAuth: true,
      body: { json: { env_var: changes } },
    },
    envVarOne,
  );
  return answer.env_var;
}

/** 4.16 DELETE /repos/settings/env_vars/{id} */
export async function deleteEnvVar(ci: CiSession, repositoryId: number, envVarId: string): Promise<void> {
  await ci.send({
    method: 'DELETE',
    path: `/repos/settings/env_vars/${envVarSegment(envVarId)}`,
    query: { repository_id: requireRepoId(repositoryId) },
    requiresAuth: true,
  });
}

/** Shell-exportable names only: the service exports them into the build environment. */
export const ENV_VAR_NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

function checkName(name: string): void {
  if (!ENV_VAR_NAME.test(name)) throw badRequest('an environment variable name is letters, digits and _');
}

function envVarSegment(envVarId: string): string {
  if (!/^[A-Za-z0-9-]+$/.test(envVarId)) throw badRequest('an environment variable id is a UUID');
  return envVarId;
}

/** 4.17 GET /settings/ssh_key/{repository id} — description and fingerprint; the key itself is write-only. */
export async function getSshKey(ci: CiSession, repositoryId: number): Promise<SshKey> {
  const answer = await ci.json(
    {
      method: 'GET',
      path: `/settings/ssh_key/${idSegment(repositoryId, 'repository id')}`,
      requiresAuth: true,
    },
    z.looseObject({ ssh_key: sshKeySchema }),
  );
  return answer.ssh_key;
}

/** 4.17 PATCH /settings/ssh_key/{repository id} — creates or replaces the custom SSH key. */
export async function setSshKey(
  ci: CiSession,
  repositoryId: number,
  key: { value: string; description?: string },
): Promise<SshKey> {
  if (key.value.trim() === '') throw badRequest('the private key is required');
  const answer = await ci.json(
    {
      method: 'PATCH',
      path: `/settings/ssh_key/${idSegment(repositoryId, 'repository id')}`,
      requiresAuth: true,
      body: { json: { ssh_key: { value: key.value, description: key.description ?? '' } } },
    },
    z.looseObject({ ssh_key: sshKeySchema }),
  );
  return answer.ssh_key;
}

/** 4.17 DELETE /settings/ssh_key/{repository id} */
export async function deleteSshKey(ci: CiSession, repositoryId: number): Promise<void> {
  await ci.send({
    method: 'DELETE',
    path: `/settings/ssh_key/${idSegment(repositoryId, 'repository id')}`,
    requiresAuth: true,
  });
}
