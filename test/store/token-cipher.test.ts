import assert from 'node:assert/strict';
import { randomBytes } from 'node:crypto';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import { TokenCipher, TokenDecryptError } from '../../src/store/token-cipher.js';

const TOKEN = 'ghp_SuperSecretTokenValue1234567890abcdef';
const CONTEXT = 'T012345:U0ABCDE:com';
const keyA = Buffer.alloc(32, 1);
const keyB = Buffer.alloc(32, 2);

function failure(run: () => unknown): TokenDecryptError {
  try {
    run();
  } catch (error) {
    assert.ok(error instanceof TokenDecryptError, `expected TokenDecryptError, got ${String(error)}`);
    assert.equal(error.code, 'token_undecryptable');
    return error;
  }
  assert.fail('expected decryption to fail');
}

/** Replaces part `index` of a sealed string (0 = version ... 4 = ciphertext). */
function withPart(sealed: string, index: number, change: (part: string) => string): string {
  const parts = sealed.split('.');
  parts[index] = change(parts[index] ?? '');
  return parts.join('.');
}

/** Flips one bit of a base64url part and re-encodes it canonically. */
function flipBit(part: string): string {
  const bytes = Buffer.from(part, 'base64url');
  bytes[0] = (bytes[0] ?? 0) ^ 1;
  return bytes.toString('base64url');
}

describe('TokenCipher', () => {
  it('round-trips a token under the same context', () => {
    const cipher = new TokenCipher([keyA]);
    assert.equal(cipher.decrypt(cipher.encrypt(TOKEN, CONTEXT), CONTEXT), TOKEN);
  });

  it('produces v1.<keyid>.<iv>.<tag>.<ciphertext> in base64url without the plaintext', () => {
    const cipher = new TokenCipher([keyA]);
    const sealed = cipher.encrypt(TOKEN, CONTEXT);
    const parts = sealed.split('.');
    assert.equal(parts.length, 5);
    assert.equal(parts[0], 'v1');
    for (const part of parts) assert.match(part, /^[A-Za-z0-9_-]+$/);
    assert.equal(Buffer.from(parts[2] ?? '', 'base64url').length, 12, '96-bit IV');
    assert.equal(Buffer.from(parts[3] ?? '', 'base64url').length, 16, '128-bit tag');
    assert.ok(!sealed.includes(TOKEN));
    assert.ok(!sealed.includes(Buffer.from(TOKEN).toString('base64url')));
    assert.ok(!sealed.includes(keyA.toString('base64url')));
  });

  it('uses a fresh IV every time, so equal tokens seal differently', () => {
    const cipher = new TokenCipher([keyA]);
    const first = cipher.encrypt(TOKEN, CONTEXT);
    const second = cipher.encrypt(TOKEN, CONTEXT);
    assert.notEqual(first, second);
    assert.notEqual(first.split('.')[2], second.split('.')[2]);
  });

  it('rotates keys: old tokens still open after a new key is put first, new ones use the new key', () => {
    const before = new TokenCipher([keyA]);
    const sealedOld = before.encrypt(TOKEN, CONTEXT);
    const after = new TokenCipher([keyB, keyA]);
    assert.equal(after.decrypt(sealedOld, CONTEXT), TOKEN);
    const sealedNew = after.encrypt(TOKEN, CONTEXT);
    assert.notEqual(sealedNew.split('.')[1], sealedOld.split('.')[1], 'a different key id');
    assert.equal(new TokenCipher([keyB]).decrypt(sealedNew, CONTEXT), TOKEN);
    assert.equal(failure(() => before.decrypt(sealedNew, CONTEXT)).reason, 'unknown_key');
  });

  it('reports a token sealed under a key that was removed as unknown_key', () => {
    const sealed = new TokenCipher([keyA]).encrypt(TOKEN, CONTEXT);
    assert.equal(failure(() => new TokenCipher([keyB]).decrypt(sealed, CONTEXT)).reason, 'unknown_key');
  });

  it('rejects a token decrypted under another context', () => {
    const cipher = new TokenCipher([keyA]);
    const sealed = cipher.encrypt(TOKEN, CONTEXT);
    for (const other of ['T012345:U0OTHER:com', 'T012345:U0ABCDE:org', 'T999999:U0ABCDE:com', '']) {
      assert.equal(failure(() => cipher.decrypt(sealed, other)).reason, 'rejected');
    }
  });

  it('rejects tampering with the ciphertext, the tag or the IV', () => {
    const cipher = new TokenCipher([keyA]);
    const sealed = cipher.encrypt(TOKEN, CONTEXT);
    for (const index of [2, 3, 4]) {
      const tampered = withPart(sealed, index, flipBit);
      assert.notEqual(tampered, sealed);
      assert.equal(failure(() => cipher.decrypt(tampered, CONTEXT)).reason, 'rejected');
    }
  });

  it('rejects any single-character change of the sealed string', () => {
    const cipher = new TokenCipher([keyA, keyB]);
    const sealed = cipher.encrypt(TOKEN, CONTEXT);
    const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.';
    fc.assert(
      fc.property(
        fc.nat({ max: sealed.length - 1 }),
        fc.constantFrom(...alphabet),
        (position, replacement) => {
          fc.pre(sealed[position] !== replacement);
          const tampered = sealed.slice(0, position) + replacement + sealed.slice(position + 1);
          failure(() => cipher.decrypt(tampered, CONTEXT));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('rejects malformed sealed strings without echoing them', () => {
    const cipher = new TokenCipher([keyA]);
    const sealed = cipher.encrypt(TOKEN, CONTEXT);
    const malformed = [
      '',
      TOKEN,
      'v1',
      sealed.replace(/^v1/, 'v2'),
      `${sealed}.extra`,
      sealed.split('.').slice(0, 4).join('.'),
      withPart(sealed, 2, (p) => p.slice(2)),
      withPart(sealed, 3, (p) => `${p}AA`),
      withPart(sealed, 4, (p) => `${p}=`),
      withPart(sealed, 4, (p) => `${p.slice(0, -1)}+`),
    ];
    for (const text of malformed) {
      const error = failure(() => cipher.decrypt(text, CONTEXT));
      assert.equal(error.reason, 'malformed', `for ${text.slice(0, 20)}…`);
      if (text.length > 8) assert.ok(!error.message.includes(text));
    }
  });

  it('refuses keys that are not 32 bytes, none at all, or the same key twice', () => {
    assert.throws(() => new TokenCipher([]), RangeError);
    assert.throws(() => new TokenCipher([Buffer.alloc(16)]), RangeError);
    assert.throws(() => new TokenCipher([keyA, Buffer.from(keyA)]), RangeError);
  });

  it('makes an ephemeral cipher whose tokens no other cipher opens', () => {
    const one = TokenCipher.ephemeral();
    const sealed = one.encrypt(TOKEN, CONTEXT);
    assert.equal(one.decrypt(sealed, CONTEXT), TOKEN);
    assert.equal(failure(() => TokenCipher.ephemeral().decrypt(sealed, CONTEXT)).reason, 'unknown_key');
  });

  it('round-trips any text under any context (property)', () => {
    const cipher = new TokenCipher([randomBytes(32), keyA]);
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), fc.string({ unit: 'binary' }), (plain, context) => {
        const sealed = cipher.encrypt(plain, context);
        assert.equal(cipher.decrypt(sealed, context), plain);
        if (plain.length >= 8) assert.ok(!sealed.includes(plain));
      }),
      { numRuns: 200 },
    );
  });
});
