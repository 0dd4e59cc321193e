import { STATUS_CODES } from 'node:http';
import type { webApi } from '@slack/bolt';
import { Agent, request } from 'undici';
import { flatHeaders, headerValue, type ResponseHeaders } from './response-headers.js';

type FetchResponse = Awaited<ReturnType<webApi.FetchFunction>>;

/**
 * The `fetch` the Slack Web API clients use: undici's `request()` (the CI client's HTTP client)
 * with the small part of a fetch Response the clients read. WHATWG fetch builds streams, Headers and
 * Request objects on every call; while the app edits hundreds of live tails a second that was
 * over half of the garbage that outlived a young-generation collection (bench/follow.md).
 */
export function createSlackFetch(
  dispatcher: Agent = new Agent({ keepAliveTimeout: 30_000 }),
): webApi.FetchFunction {
  return async (url, init = {}) => {
    const response = await request(url, {
      method: (init.method ?? 'GET') as 'GET',
      headers: init.headers ?? {},
      // A file upload's FormData is Node's own; undici recognises any FormData-like body.
      body: (init.body ?? null) as string | null,
      signal: init.signal,
      dispatcher,
    });
    // Slack answers with small JSON documents: read them whole, which frees the connection.
    const text = await response.body.text();
    const status = response.statusCode;
    return {
      ok: status >= 200 && status < 300,
      status,
      statusText: STATUS_CODES[status] ?? '',
      url: String(url),
      headers: readOnlyHeaders(response.headers),
      text: async () => text,
      json: async () => JSON.parse(text) as unknown,
      arrayBuffer: async () => {
        const bytes = Buffer.from(text, 'utf8');
        return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
      },
    };
  };
}

function readOnlyHeaders(headers: ResponseHeaders): FetchResponse['headers'] {
  return {
    get: (name) => headerValue(headers[name.toLowerCase()]) ?? null,
    *entries() {
      yield* Object.entries(flatHeaders(headers));
    },
  };
}
