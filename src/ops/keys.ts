import type { CiSession } from '../ci/client.js';
import { CiError } from '../ci/errors.js';
import { getRepoKey, regenerateRepoKey } from '../ci/repos.js';
import {
  type Assignment,
  encryptSecure,
  maxPlaintextBytes,
  type SecureValue,
  ValueTooLongError,
} from './encrypt.js';
import type { RepoRef } from './references.js';
import { resolveRepo } from './resolve.js';

/** A repository's public key, as `pubkey` shows it and `encrypt` uses it. */
export interface PublicKey {
  slug: string;
  /** PEM. */
  key: string;
  fingerprint: string | undefined;
  /** The longest `NAME=value`, in UTF-8 bytes, one secure value can hold. */
  maxBytes: number;
}

function publicKey(slug: string, answer: { key: string; fingerprint?: string | null }): PublicKey {
  let maxBytes: number;
  try {
    maxBytes = maxPlaintextBytes(answer.key);
  } catch (cause) {
    throw new CiError(
      'invalid_response',
      'The repository key is not an RSA public key',
      { fieldPath: 'key' },
      { cause },
    );
  }
  return { slug, key: answer.key, fingerprint: answer.fingerprint ?? undefined, maxBytes };
}

/** GET /repos/{slug}/key, after resolving the reference (so an id shows as its slug). */
export async function fetchPublicKey(ci: CiSession, ref: RepoRef): Promise<PublicKey> {
  const { slug } = await resolveRepo(ci, ref);
  return publicKey(slug, await getRepoKey(ci, slug));
}

/** POST /repos/{slug}/key: a new key pair. Every value encrypted with the old key stops working. */
export async function regeneratePublicKey(ci: CiSession, slug: string): Promise<PublicKey> {
  return publicKey(slug, await regenerateRepoKey(ci, slug));
}

export interface EncryptOutcome {
  slug: string;
  fingerprint: string | undefined;
  values: SecureValue[];
  /** Variables whose `NAME=value` does not fit the key: nothing was made for them. */
  tooLong: ValueTooLongError[];
}

/**
 * Encrypts each assignment with the repository's current public key, fetched now (not the one the
 * form was opened with, which may have been regenerated since). Nothing is stored or logged.
 */
export async function encryptForRepo(
  ci: CiSession,
  slug: string,
  assignments: readonly Assignment[],
): Promise<EncryptOutcome> {
  const key = publicKey(slug, await getRepoKey(ci, slug));
  const values: SecureValue[] = [];
  const tooLong: ValueTooLongError[] = [];
  for (const assignment of assignments) {
    try {
      values.push({ name: assignment.name, secure: encryptSecure(key.key, assignment) });
    } catch (error) {
      if (!(error instanceof ValueTooLongError)) throw error;
      tooLong.push(error);
    }
  }
  return { slug, fingerprint: key.fingerprint, values, tooLong };
}
