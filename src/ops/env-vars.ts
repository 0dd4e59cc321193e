import type { CiSession } from '../ci/client.js';
import type { EnvVar, Repository } from '../ci/schemas.js';
import { createEnvVar, deleteEnvVar, listEnvVars, updateEnvVar } from '../ci/settings.js';
import { compareText } from '../compare-text.js';
import { UserFacingError } from './describe-error.js';
import type { RepoRef } from './references.js';
import { resolveRepo } from './resolve.js';

/**
 * A repository's environment variables. What leaves this module never holds the value of a private
 * variable: the service omits it, and `shownVar` drops it should a service send it anyway. A value
 * being set goes in and is sent to the CI service only.
 */

export interface ShownEnvVar {
  id: string;
  name: string;
  public: boolean;
  /** Present only for public variables. */
  value?: string;
}

export function shownVar(envVar: EnvVar): ShownEnvVar {
  const shown: ShownEnvVar = { id: envVar.id, name: envVar.name, public: envVar.public };
  if (envVar.public && typeof envVar.value === 'string') shown.value = envVar.value;
  return shown;
}

export async function listRepoEnvVars(
  ci: CiSession,
  ref: RepoRef,
): Promise<{ repo: Repository; vars: ShownEnvVar[] }> {
  const repo = await resolveRepo(ci, ref);
  const vars = (await listEnvVars(ci, repo.id)).map(shownVar);
  vars.sort((a, b) => compareText(a.name, b.name));
  return { repo, vars };
}

/** The variable called `name`, or a user-facing error saying there is none. */
export async function findRepoEnvVar(
  ci: CiSession,
  ref: RepoRef,
  name: string,
): Promise<{ repo: Repository; envVar: ShownEnvVar }> {
  const { repo, vars } = await listRepoEnvVars(ci, ref);
  const envVar = vars.find((v) => v.name === name);
  if (!envVar) throw new UserFacingError(`${repo.slug} has no environment variable called ${name}.`);
  return { repo, envVar };
}

export interface EnvVarInput {
  name: string;
  value: string;
  public: boolean;
}

export interface EnvVarSet {
  repo: Repository;
  name: string;
  public: boolean;
  /** False when a variable of that name existed and was updated. */
  created: boolean;
}

/** Creates the variable, or updates it (PATCH) when one of that name exists: the list is read first. */
export async function setRepoEnvVar(ci: CiSession, ref: RepoRef, input: EnvVarInput): Promise<EnvVarSet> {
  const repo = await resolveRepo(ci, ref);
  const existing = (await listEnvVars(ci, repo.id)).find((v) => v.name === input.name);
  if (existing) {
    await updateEnvVar(ci, repo.id, existing.id, { value: input.value, public: input.public });
  } else {
    await createEnvVar(ci, repo.id, { name: input.name, value: input.value, public: input.public });
  }
  return { repo, name: input.name, public: input.public, created: !existing };
}

/** Deletes a variable by id (the id a listing gave). */
export async function unsetRepoEnvVar(ci: CiSession, repositoryId: number, envVarId: string): Promise<void> {
  await deleteEnvVar(ci, repositoryId, envVarId);
}
