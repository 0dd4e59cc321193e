import type { CiSession } from '../ci/client.js';
import { CiError } from '../ci/errors.js';
import type { Repository, SshKey } from '../ci/schemas.js';
import { deleteSshKey, getSshKey, setSshKey } from '../ci/settings.js';
import { UserFacingError } from './describe-error.js';
import type { RepoRef } from './references.js';
import { resolveRepo } from './resolve.js';

/**
 * A repository's custom SSH key. The private key is write-only at the service: it goes out in one
 * PATCH and is never kept, logged or shown here; reads give its description and fingerprint.
 */

export type RepoSummary = Pick<Repository, 'id' | 'slug'>;

export interface SshKeyState {
  repo: RepoSummary;
  /** Undefined when the repository has no custom key (the service answered 404). */
  key: SshKey | undefined;
}

/** GET /settings/ssh_key/{id}: a 404 there means "no custom key", not "no repository". */
export async function findSshKey(ci: CiSession, ref: RepoRef): Promise<SshKeyState> {
  const repo = await resolveRepo(ci, ref);
  try {
    return { repo, key: await getSshKey(ci, repo.id) };
  } catch (error) {
    if (error instanceof CiError && error.code === 'not_found') return { repo, key: undefined };
    throw error;
  }
}

/** The form only ever sends what looks like a private key (PEM or OpenSSH armour). */
export function looksLikePrivateKey(text: string): boolean {
  return (
    /-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----/.test(text) && /-----END [A-Z0-9 ]*PRIVATE KEY-----/.test(text)
  );
}

/** PATCH /settings/ssh_key/{id}; a 422 (the service could not read the key) says so plainly. */
export async function replaceSshKey(
  ci: CiSession,
  repo: RepoSummary,
  key: { value: string; description?: string },
): Promise<SshKey> {
  try {
    return await setSshKey(ci, repo.id, key);
  } catch (error) {
    if (error instanceof CiError && error.code === 'rejected' && error.status === 422) {
      throw new UserFacingError(
        `The CI service did not accept that SSH key for ${repo.slug}: it must be a private key without a passphrase. Nothing was changed.`,
      );
    }
    throw error;
  }
}

/** DELETE /settings/ssh_key/{id}; builds then use the default deploy key again. */
export async function removeSshKey(ci: CiSession, repo: RepoSummary): Promise<void> {
  await deleteSshKey(ci, repo.id);
}
