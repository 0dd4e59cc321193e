import type { IncomingHttpHeaders } from 'node:http';
import { isRecord } from './outcome.js';
import type { Json } from './types.js';

/** Arguments @slack/web-api sends JSON-encoded inside a form body. */
const JSON_ARGUMENTS = new Set(['blocks', 'attachments', 'view', 'unfurls', 'metadata', 'user_auth_blocks']);

export type DecodedCall = { ok: true; args: Json; token: string | undefined } | { ok: false; error: string };

/**
 * Decodes a Web API request the ways Slack accepts one: form-encoded (what @slack/web-api sends,
 * objects JSON-encoded per field) or a JSON body, plus query parameters; the token comes from
 * `Authorization: Bearer` or else from a `token` argument.
 */
export function decodeCall(
  headers: IncomingHttpHeaders,
  rawBody: string,
  query: URLSearchParams,
): DecodedCall {
  const args: Json = Object.fromEntries(query);
  const contentType = (headers['content-type'] ?? '').toLowerCase();
  if (rawBody.length > 0) {
    if (contentType.startsWith('application/json')) {
      const parsed = parseJson(rawBody);
      if (!isRecord(parsed)) return { ok: false, error: 'invalid_json' };
      Object.assign(args, parsed);
    } else if (contentType.startsWith('application/x-www-form-urlencoded')) {
      Object.assign(args, Object.fromEntries(new URLSearchParams(rawBody)));
    } else if (contentType === '') {
      return { ok: false, error: 'missing_post_type' };
    } else {
      return { ok: false, error: 'invalid_post_type' };
    }
  }
  for (const key of JSON_ARGUMENTS) {
    const value = args[key];
    if (typeof value === 'string') {
      const parsed = parseJson(value);
      // An unparseable value stays a string; the method then answers invalid_blocks_format & co.
      if (parsed !== undefined) args[key] = parsed;
    }
  }
  const bearer = /^Bearer\s+(\S+)$/i.exec(headers.authorization ?? '')?.[1];
  const bodyToken = typeof args.token === 'string' ? args.token : undefined;
  delete args.token;
  return { ok: true, args, token: bearer ?? bodyToken };
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}
