import type { Json } from './types.js';

/** What a method handler answers; `truncated` marks a message whose text was cut to 40,000 chars. */
export interface Outcome {
  body: Json;
  truncated?: boolean;
}

export function ok(fields: Json = {}): Outcome {
  return { body: { ok: true, ...fields } };
}

export function fail(error: string, fields: Json = {}): Outcome {
  return { body: { ok: false, error, ...fields } };
}

/** Slack explains argument problems in `response_metadata.messages`, each prefixed `[ERROR]`. */
export function failWithMessages(error: string, messages: string[], fields: Json = {}): Outcome {
  return fail(error, { ...fields, response_metadata: { messages: messages.map((m) => `[ERROR] ${m}`) } });
}

export function missingArgument(name: string): Outcome {
  return failWithMessages('invalid_arguments', [`missing required field: ${name}`]);
}

export function isRecord(value: unknown): value is Json {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A form-encoded argument arrives as a string; JSON bodies may carry numbers or booleans. */
export function stringArg(args: Json, key: string): string | undefined {
  const value = args[key];
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return undefined;
}

export function boolArg(args: Json, key: string): boolean {
  const value = args[key];
  return value === true || value === 'true' || value === '1' || value === 1;
}
