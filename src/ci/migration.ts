import type { CiSession } from './client.js';
import { type RepoKey, v3RepoPath } from './paths.js';
import { type V3Repository, v3RepositorySchema } from './schemas.js';

/**
 * 4.20 V3 repository and migration, on the private/hosted deployment. The client core sends the
 * version header, `Accept: application/json` and `Content-Type: application/json` for `api: 'v3'`.
 */

export const MIGRATION_STATUSES = ['queued', 'migrating', 'migrated', 'success', 'failure'] as const;
export type MigrationStatus = (typeof MIGRATION_STATUSES)[number] | (string & {});

/** GET /repo/{id or owner%2Fname} — carries `migration_status`. */
export async function getV3Repository(ci: CiSession, repo: RepoKey): Promise<V3Repository> {
  return ci.json({ method: 'GET', path: v3RepoPath(repo), api: 'v3' }, v3RepositorySchema);
}

/** POST /repo/{id or owner%2Fname}/migrate — answers 202 with the repository; `already_migrated` when asked again. */
export async function migrateRepository(ci: CiSession, repo: RepoKey): Promise<V3Repository> {
  return ci.json(
    { method: 'POST', path: `${v3RepoPath(repo)}/migrate`, api: 'v3', requiresAuth: true },
    v3RepositorySchema,
  );
}
