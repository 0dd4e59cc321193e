import { type Agent, type Dispatcher, request } from 'undici';
import { CiError, type CiErrorData } from './errors.js';

/**
 * One HTTP exchange with redirects followed by hand, so that the rule "Authorization only ever goes
 * to the deployment's own origin" is enforced here and visible (archived logs redirect to object
 * storage on another host).
 */

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface Exchange {
  method: HttpMethod;
  url: URL;
  headers: Record<string, string>;
  /** Sent only to this origin; dropped on any redirect that leaves it. */
  authorization: string | undefined;
  authorizedOrigin: string;
  body: string | undefined;
  signal: AbortSignal;
  bodyTimeoutMs: number;
}

export interface ExchangeResult {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: Dispatcher.ResponseData['body'];
  url: URL;
}

export const MAX_REDIRECTS = 5;
const REDIRECT_STATUSES = new Set([301, 302, 303, 307, 308]);

export async function exchange(agent: Agent, ex: Exchange, errorData: CiErrorData): Promise<ExchangeResult> {
  let { method, url, body } = ex;
  let baseHeaders = ex.headers;
  for (let hop = 0; ; hop++) {
    const headers = { ...baseHeaders };
    if (ex.authorization && url.origin === ex.authorizedOrigin) headers.authorization = ex.authorization;

    const response = await request(url, {
      dispatcher: agent,
      method,
      headers,
      body,
      signal: ex.signal,
      bodyTimeout: ex.bodyTimeoutMs,
    });
    const location = headerValue(response.headers.location);
    if (!REDIRECT_STATUSES.has(response.statusCode) || !location) {
      return { status: response.statusCode, headers: response.headers, body: response.body, url };
    }

    await response.body.dump();
    if (hop + 1 > MAX_REDIRECTS) {
      throw new CiError('invalid_response', `The CI service redirected more than ${MAX_REDIRECTS} times`, {
        ...errorData,
        status: response.statusCode,
      });
    }
    const next = new URL(location, url);
    if (next.protocol !== 'http:' && next.protocol !== 'https:') {
      throw new CiError('invalid_response', 'The CI service redirected to an unsupported address', errorData);
    }
    // 303 (and, by long-standing client practice, 301/302 after a POST) continue as a body-less GET.
    if (
      response.statusCode === 303 ||
      ((response.statusCode === 301 || response.statusCode === 302) && method !== 'GET')
    ) {
      method = 'GET';
      body = undefined;
      const { 'content-type': _dropped, ...rest } = baseHeaders;
      baseHeaders = rest;
    }
    url = next;
  }
}

export function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

/** Reads a body as text, refusing answers larger than `maxBytes` (a 20 MB log must be streamed instead). */
export async function readText(
  body: AsyncIterable<Uint8Array | string>,
  maxBytes: number,
  errorData: CiErrorData,
): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of body) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : Buffer.from(chunk);
    size += buffer.length;
    if (size > maxBytes) {
      throw new CiError(
        'invalid_response',
        `The CI service's answer is larger than ${maxBytes} bytes`,
        errorData,
      );
    }
    chunks.push(buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}
