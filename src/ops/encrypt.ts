import { constants, createPublicKey, publicEncrypt } from 'node:crypto';
import { ENV_VAR_NAME } from '../ci/settings.js';

/**
 * `secure:` values for the configuration file, as `travis encrypt` makes them: the UTF-8 text
 * `NAME=value` encrypted with the repository's public RSA key and PKCS#1 v1.5 padding, in base64.
 * Pure functions: nothing here stores, logs or sends the plain value.
 */

/** PKCS#1 v1.5 padding takes 11 bytes of every RSA block. */
export const PKCS1_V15_OVERHEAD = 11;
/** How many `NAME=value` lines one form encrypts at once. */
export const MAX_ASSIGNMENTS = 10;

export interface Assignment {
  name: string;
  value: string;
  /** 1-based line of the text it came from. */
  line: number;
}

export type AssignmentsResult = { ok: true; assignments: Assignment[] } | { ok: false; problems: string[] };

/**
 * Reads one `NAME=value` per line (blank lines skipped). The value is everything after the first
 * `=`, kept exactly as typed. Problems name the line and never quote it: it may hold a secret.
 */
export function parseAssignments(text: string): AssignmentsResult {
  const problems: string[] = [];
  const assignments: Assignment[] = [];
  const lines = text.split(/\r?\n/);
  for (const [index, raw] of lines.entries()) {
    const line = index + 1;
    if (raw.trim() === '') continue;
    const equals = raw.indexOf('=');
    if (equals === -1) {
      problems.push(`Line ${line} has no “=”: write NAME=value.`);
      continue;
    }
    const name = raw.slice(0, equals).trim();
    const value = raw.slice(equals + 1);
    if (!ENV_VAR_NAME.test(name)) {
      problems.push(`Line ${line}: a name is letters, digits and _, and does not start with a digit.`);
    } else if (value === '') {
      problems.push(`Line ${line}: ${name} has no value after “=”.`);
    } else {
      assignments.push({ name, value, line });
    }
  }
  if (problems.length === 0 && assignments.length === 0) problems.push('Write at least one NAME=value line.');
  if (assignments.length > MAX_ASSIGNMENTS) {
    problems.push(`At most ${MAX_ASSIGNMENTS} values at once; you wrote ${assignments.length}.`);
  }
  return problems.length > 0 ? { ok: false, problems } : { ok: true, assignments };
}

/** The longest text, in UTF-8 bytes, that one RSA PKCS#1 v1.5 block of this key can hold. */
export function maxPlaintextBytes(publicKeyPem: string): number {
  const bits = createPublicKey(publicKeyPem).asymmetricKeyDetails?.modulusLength;
  if (bits === undefined) throw new TypeError('not an RSA public key');
  return Math.floor(bits / 8) - PKCS1_V15_OVERHEAD;
}

/** The UTF-8 length of `NAME=value`, which is what gets encrypted. */
export function plaintextBytes(assignment: Pick<Assignment, 'name' | 'value'>): number {
  return Buffer.byteLength(`${assignment.name}=${assignment.value}`, 'utf8');
}

/** A sentence for a value that does not fit the key; it names the variable, never the value. */
export function tooLongText(name: string, bytes: number, maxBytes: number): string {
  return `${name}=… is ${bytes} bytes, but this repository's key can encrypt at most ${maxBytes} bytes (name, “=” and value together). Shorten the value, or keep a longer secret in a file encrypted with \`travis encrypt-file\`.`;
}

export class ValueTooLongError extends RangeError {
  override readonly name = 'ValueTooLongError';
  constructor(
    readonly variable: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super(tooLongText(variable, bytes, maxBytes));
  }
}

/** base64 of RSA-PKCS#1-v1.5(`NAME=value`) with the key; ValueTooLongError when it cannot fit. */
export function encryptSecure(publicKeyPem: string, assignment: Pick<Assignment, 'name' | 'value'>): string {
  const maxBytes = maxPlaintextBytes(publicKeyPem);
  const bytes = plaintextBytes(assignment);
  if (bytes > maxBytes) throw new ValueTooLongError(assignment.name, bytes, maxBytes);
  const plaintext = Buffer.from(`${assignment.name}=${assignment.value}`, 'utf8');
  return publicEncrypt({ key: publicKeyPem, padding: constants.RSA_PKCS1_PADDING }, plaintext).toString(
    'base64',
  );
}

export interface SecureValue {
  name: string;
  secure: string;
}

/** The start of the snippet to paste into the configuration file. */
export const SECURE_YAML_HEADER = 'env:\n  global:';

/** One variable's entry of the snippet: a comment naming it, then its secure value. */
export function secureYamlEntry(value: SecureValue): string {
  return `    # ${value.name}\n    - secure: "${value.secure}"`;
}

/** The snippet to paste into the configuration file, one commented entry per variable. */
export function secureYaml(values: readonly SecureValue[]): string {
  return [SECURE_YAML_HEADER, ...values.map(secureYamlEntry)].join('\n');
}
