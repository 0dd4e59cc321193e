import { STATUS_CODES } from 'node:http';
import { webApi } from '@slack/bolt';
import { Agent, request } from 'undici';
import { z } from 'zod';
import { parseJsonOrUndefined } from '../../json.js';
import { flatHeaders, type ResponseHeaders } from '../response-headers.js';

/** What the outbox needs of a Web API client: one call, no retries. `WebClient` fits too. */
export interface SlackCaller {
  apiCall(method: string, args: Record<string, unknown>): Promise<webApi.WebAPICallResult>;
}

export interface SlackJsonCallerOptions {
  /** The bot token; without one Slack answers `not_authed`. */
  token: string | undefined;
  /** Where method names are appended, as in Slack's own `https://slack.com/api/`. */
  apiUrl: string;
  userAgent: string;
  /** A call with no answer by then fails as a request error (which the outbox retries). */
  timeoutMs?: number;
}

const DEFAULT_TIMEOUT_MS = 30_000;

// Slack answers every method with an object that says `ok`; the rest is the method's own.
const answerSchema = z.looseObject({ ok: z.boolean(), error: z.string().optional() });

/**
 * The outbox's Web API client: each call one JSON POST through undici, its failures thrown as
 * @slack/web-api's own error classes (so `classifyFailure` reads both clients alike).
 *
 * Why not `WebClient`: the outbox paces, merges and retries by itself, and needs none of the
 * client's request queue, retry wrapper, form encoding or argument copies made for its logs. While
 * the app edits a thousand live tails those cost about 50 KB of garbage per edit, a quarter of
 * the process's allocations (bench/follow.md). Slack takes a JSON body for the write methods the
 * outbox uses (chat.postMessage, chat.update, views.publish …).
 */
export function createSlackJsonCaller(options: SlackJsonCallerOptions): SlackCaller {
  const timeout = options.timeoutMs ?? DEFAULT_TIMEOUT_MS;
  const base = options.apiUrl.endsWith('/') ? options.apiUrl : `${options.apiUrl}/`;
  const dispatcher = new Agent({ keepAliveTimeout: 30_000, headersTimeout: timeout, bodyTimeout: timeout });
  const headers = {
    ...(options.token ? { authorization: `Bearer ${options.token}` } : {}),
    'content-type': 'application/json; charset=utf-8',
    'user-agent': options.userAgent,
  };
  return {
    async apiCall(method, args) {
      let status: number;
      let responseHeaders: ResponseHeaders;
      let text: string;
      try {
        const response = await request(`${base}${method}`, {
          method: 'POST',
          headers,
          body: JSON.stringify(args),
          dispatcher,
        });
        status = response.statusCode;
        responseHeaders = response.headers;
        text = await response.body.text();
      } catch (error) {
        throw new webApi.WebAPIRequestError(error instanceof Error ? error : new Error(String(error)));
      }
      if (status === 429) throw new webApi.WebAPIRateLimitedError(retryAfterSeconds(responseHeaders));
      if (status !== 200) {
        throw new webApi.WebAPIHTTPError(
          status,
          STATUS_CODES[status] ?? '',
          flatHeaders(responseHeaders),
          text,
        );
      }
      const answer = answerSchema.safeParse(parseJsonOrUndefined(text));
      if (!answer.success) {
        throw new webApi.WebAPIRequestError(
          new Error(`Slack's answer to ${method} was not a Web API answer`),
        );
      }
      const { data } = answer;
      if (!data.ok) throw new webApi.WebAPIPlatformError({ ...data, error: data.error ?? 'unknown_error' });
      return data;
    },
  };
}

/** Slack sends whole seconds; a missing or unreadable header still means "wait": one second. */
function retryAfterSeconds(headers: ResponseHeaders): number {
  const value = Number.parseInt(String(headers['retry-after'] ?? ''), 10);
  return Number.isNaN(value) || value < 1 ? 1 : value;
}
