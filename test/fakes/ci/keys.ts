import {
  constants,
  createHash,
  createPrivateKey,
  createPublicKey,
  generateKeyPairSync,
  type KeyObject,
  privateDecrypt,
} from 'node:crypto';
import type { RepoKeyRecord } from './records.js';

/** MD5 of the DER public key in colon-separated hex, the way the service prints key fingerprints. */
export function fingerprintOf(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' });
  const hex = createHash('md5').update(der).digest('hex');
  return hex.match(/../g)?.join(':') ?? hex;
}

/** A fresh repository key pair. 2048 bits, as the service generates them today. */
export function generateRepoKey(): RepoKeyRecord {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  return {
    publicKeyPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    fingerprint: fingerprintOf(publicKey),
  };
}

/** Fingerprint of a private key sent as an SSH key, or `undefined` when it is not a usable key. */
export function privateKeyFingerprint(pem: string): string | undefined {
  try {
    return fingerprintOf(createPublicKey(createPrivateKey(pem)));
  } catch {
    return undefined;
  }
}

/**
 * Undoes RSA with PKCS#1 v1.5 padding (what `travis encrypt` produces). Node refuses that padding for
 * private decryption since CVE-2023-46809, so the fake decrypts raw and strips the padding itself:
 * 0x00 0x02, at least 8 non-zero bytes, 0x00, then the message. Test-only code: not constant-time.
 */
export function decryptPkcs1v15(privateKeyPem: string, ciphertext: Buffer): Buffer {
  const block = privateDecrypt({ key: privateKeyPem, padding: constants.RSA_NO_PADDING }, ciphertext);
  const separator = block.indexOf(0, 2);
  if (block[0] !== 0 || block[1] !== 2 || separator < 10) throw new Error('not PKCS#1 v1.5 padded');
  return block.subarray(separator + 1);
}
