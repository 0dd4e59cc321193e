import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

const VERSION = 'v1';
const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
const KEY_ID_BYTES = 6;
const BASE64URL = /^[A-Za-z0-9_-]*$/;

export type TokenDecryptFailure =
  /** Not a sealed string of a version this code knows. */
  | 'malformed'
  /** Sealed under a key that is not configured (any more). */
  | 'unknown_key'
  /** Authentication failed: tampered data, or a different context than at encryption. */
  | 'rejected';

/** Why a sealed token could not be opened; never carries the sealed text or the plaintext. */
export class TokenDecryptError extends Error {
  override readonly name = 'TokenDecryptError';
  readonly code = 'token_undecryptable';
  constructor(
    readonly reason: TokenDecryptFailure,
    options?: ErrorOptions,
  ) {
    super(
      {
        malformed: 'The sealed token is not in the v1 format',
        unknown_key: 'The sealed token was encrypted with a key that is no longer configured',
        rejected: 'The sealed token failed authentication (tampered, or stored under another context)',
      }[reason],
      options,
    );
  }
}

interface KeyEntry {
  id: string;
  key: Buffer;
}

/**
 * Seals CI tokens with AES-256-GCM. The sealed form is `v1.<keyid>.<iv>.<tag>.<ciphertext>`, each part
 * base64url. `context` (e.g. `team:user:deployment`) is bound as additional authenticated data, so a
 * sealed token copied into another user's slot does not open there. The first key encrypts; every key
 * decrypts, picked by its id (a truncated HMAC of the key, which reveals nothing about it), which is
 * how keys rotate: put the new key first and keep the old one until every token was re-sealed.
 */
export class TokenCipher {
  private readonly keys: KeyEntry[];

  constructor(keys: Buffer[]) {
    if (keys.length === 0) throw new RangeError('TokenCipher needs at least one key');
    this.keys = keys.map((key) => {
      if (key.length !== KEY_BYTES) throw new RangeError(`Each token key must be ${KEY_BYTES} bytes`);
      return { id: keyId(key), key: Buffer.from(key) };
    });
    if (new Set(this.keys.map((k) => k.id)).size !== this.keys.length) {
      throw new RangeError('The same token key is configured twice');
    }
  }

  /** A random key for this process only: sealed tokens die with it (memory mode without a key). */
  static ephemeral(): TokenCipher {
    return new TokenCipher([randomBytes(KEY_BYTES)]);
  }

  encrypt(plain: string, context: string): string {
    const [current] = this.keys;
    if (!current) throw new RangeError('TokenCipher has no key');
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', current.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(aad(context));
    const ciphertext = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
    const parts = [iv, cipher.getAuthTag(), ciphertext].map((b) => b.toString('base64url'));
    return [VERSION, current.id, ...parts].join('.');
  }

  /** The plaintext; throws TokenDecryptError when the sealed string cannot be opened under `context`. */
  decrypt(sealed: string, context: string): string {
    const [version, ...encoded] = sealed.split('.');
    const [id, iv, tag, ciphertext, ...extra] = encoded.map(decodeBase64url);
    if (
      version !== VERSION ||
      id === undefined ||
      iv?.length !== IV_BYTES ||
      tag?.length !== TAG_BYTES ||
      ciphertext === undefined ||
      extra.length > 0
    ) {
      throw new TokenDecryptError('malformed');
    }
    const entry = this.keys.find((k) => k.id === id.toString('base64url'));
    if (!entry) throw new TokenDecryptError('unknown_key');
    const decipher = createDecipheriv('aes-256-gcm', entry.key, iv, { authTagLength: TAG_BYTES });
    decipher.setAAD(aad(context));
    decipher.setAuthTag(tag);
    try {
      return Buffer.concat([decipher.update(ciphertext), decipher.final()]).toString('utf8');
    } catch (error) {
      throw new TokenDecryptError('rejected', { cause: error });
    }
  }
}

/**
 * Strict base64url: anything but the canonical encoding (stray characters, altered padding bits)
 * decodes to undefined, so every change to the sealed text is noticed, not only those that alter bytes.
 */
function decodeBase64url(text: string): Buffer | undefined {
  if (!BASE64URL.test(text)) return undefined;
  const bytes = Buffer.from(text, 'base64url');
  return bytes.toString('base64url') === text ? bytes : undefined;
}

function keyId(key: Buffer): string {
  return createHmac('sha256', key)
    .update('ci-slack token key id')
    .digest()
    .subarray(0, KEY_ID_BYTES)
    .toString('base64url');
}

/** The format version is authenticated too, so a later format can never be confused with this one. */
function aad(context: string): Buffer {
  return Buffer.from(`${VERSION}:${context}`, 'utf8');
}
