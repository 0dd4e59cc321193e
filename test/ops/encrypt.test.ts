import assert from 'node:assert/strict';
import { generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import fc from 'fast-check';
import {
  encryptSecure,
  MAX_ASSIGNMENTS,
  maxPlaintextBytes,
  parseAssignments,
  plaintextBytes,
  secureYaml,
  ValueTooLongError,
} from '../../src/ops/encrypt.js';
import { decryptPkcs1v15 } from '../fakes/ci/keys.js';

function keyPair(bits: number) {
  const { publicKey, privateKey } = generateKeyPairSync('rsa', { modulusLength: bits });
  return {
    publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString(),
    pkcs1PublicPem: publicKey.export({ type: 'pkcs1', format: 'pem' }).toString(),
    privatePem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
  };
}

const key2048 = keyPair(2048);
const key1024 = keyPair(1024);
const decrypt = (privatePem: string, base64: string) =>
  decryptPkcs1v15(privatePem, Buffer.from(base64, 'base64')).toString('utf8');

describe('parseAssignments', () => {
  it('reads one NAME=value per line, skipping blank lines, keeping the value exactly', () => {
    const result = parseAssignments('FOO=bar\n\n  API_TOKEN = a=b=c \r\nX_1=ünï');
    assert.deepEqual(result, {
      ok: true,
      assignments: [
        { name: 'FOO', value: 'bar', line: 1 },
        { name: 'API_TOKEN', value: ' a=b=c ', line: 3 },
        { name: 'X_1', value: 'ünï', line: 4 },
      ],
    });
  });

  it('names the line of every problem without quoting it', () => {
    const result = parseAssignments('hunter2\n1BAD=x\nEMPTY=\nOK=fine');
    assert.equal(result.ok, false);
    if (result.ok) return;
    assert.equal(result.problems.length, 3);
    assert.match(result.problems[0] ?? '', /^Line 1 has no “=”/);
    assert.match(result.problems[1] ?? '', /^Line 2: a name is letters/);
    assert.match(result.problems[2] ?? '', /^Line 3: EMPTY has no value/);
    assert.doesNotMatch(result.problems.join(' '), /hunter2|1BAD/);
  });

  it('refuses an empty text and more than the maximum number of lines', () => {
    assert.deepEqual(parseAssignments(' \n '), {
      ok: false,
      problems: ['Write at least one NAME=value line.'],
    });
    const many = Array.from({ length: MAX_ASSIGNMENTS + 1 }, (_, i) => `V${i}=x`).join('\n');
    const result = parseAssignments(many);
    assert.equal(result.ok, false);
    assert.match(result.ok ? '' : (result.problems[0] ?? ''), /At most 10 values/);
  });

  it('never throws, and every accepted assignment is a valid name with a value', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200 }), (text) => {
        const result = parseAssignments(text);
        if (!result.ok) return result.problems.length > 0;
        return result.assignments.every((a) => /^[A-Za-z_][A-Za-z0-9_]*$/.test(a.name) && a.value !== '');
      }),
    );
  });
});

describe('encryptSecure', () => {
  it('makes RSA PKCS#1 v1.5 ciphertext of NAME=value that the private key decrypts', () => {
    const secure = encryptSecure(key2048.publicPem, { name: 'DEPLOY_TOKEN', value: 's3cr3t ünï' });
    assert.equal(Buffer.from(secure, 'base64').length, 256);
    assert.equal(decrypt(key2048.privatePem, secure), 'DEPLOY_TOKEN=s3cr3t ünï');
  });

  it('accepts PKCS#1 ("BEGIN RSA PUBLIC KEY") as well as SPKI public keys', () => {
    const secure = encryptSecure(key1024.pkcs1PublicPem, { name: 'A', value: 'b' });
    assert.equal(decrypt(key1024.privatePem, secure), 'A=b');
  });

  it('is randomised: the same value encrypts differently each time', () => {
    const a = encryptSecure(key1024.publicPem, { name: 'A', value: 'b' });
    const b = encryptSecure(key1024.publicPem, { name: 'A', value: 'b' });
    assert.notEqual(a, b);
  });

  it('knows the limit of the key: its size in bytes minus 11', () => {
    assert.equal(maxPlaintextBytes(key1024.publicPem), 117);
    assert.equal(maxPlaintextBytes(key2048.publicPem), 245);
    const fixture = JSON.parse(
      readFileSync(
        new URL('../../../shared/fixtures/travis/travisrb_v2_repo_key.json', import.meta.url),
        'utf8',
      ),
    ) as { key: string };
    assert.equal(maxPlaintextBytes(fixture.key), 117);
  });

  it('encrypts exactly up to the limit, counted in UTF-8 bytes, and refuses one byte more', () => {
    const fits = { name: 'N', value: 'x'.repeat(117 - 2) };
    assert.equal(plaintextBytes(fits), 117);
    assert.equal(decrypt(key1024.privatePem, encryptSecure(key1024.publicPem, fits)), `N=${fits.value}`);
    const over = { name: 'N', value: `${'x'.repeat(117 - 3)}é` };
    assert.equal(plaintextBytes(over), 118);
    assert.throws(
      () => encryptSecure(key1024.publicPem, over),
      (error: unknown) =>
        error instanceof ValueTooLongError &&
        error.bytes === 118 &&
        error.maxBytes === 117 &&
        /N=… is 118 bytes.*at most 117 bytes/.test(error.message) &&
        !error.message.includes('xxx'),
    );
  });

  it('round-trips any value that fits', () => {
    fc.assert(
      fc.property(
        fc.stringMatching(/^[A-Za-z_][A-Za-z0-9_]{0,20}$/),
        fc.string({ minLength: 1, maxLength: 60, unit: 'binary' }),
        (name, value) => {
          fc.pre(plaintextBytes({ name, value }) <= 117);
          const secure = encryptSecure(key1024.publicPem, { name, value });
          return decrypt(key1024.privatePem, secure) === `${name}=${value}`;
        },
      ),
      { numRuns: 50 },
    );
  });
});

describe('secureYaml', () => {
  it('gives a snippet to paste under env.global, one commented entry per variable', () => {
    assert.equal(
      secureYaml([
        { name: 'A', secure: 'AAA=' },
        { name: 'B', secure: 'BBB=' },
      ]),
      'env:\n  global:\n    # A\n    - secure: "AAA="\n    # B\n    - secure: "BBB="',
    );
  });
});
