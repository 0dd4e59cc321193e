import { setTimeout as delay } from 'node:timers/promises';
import { Agent } from 'undici';
import type { z } from 'zod';
import type { Deployment, DeploymentConfig } from '../config.js';
import type { Logger } from '../log.js';
import { CiError, type CiErrorData } from './errors.js';
import { type ExchangeResult, exchange, type HttpMethod, headerValue, readText } from './http.js';
import { errorFromResponse } from './status.js';
import { errorFromTransport } from './transport-errors.js';

/**
 * The CI client's core. Headers, timeouts, retries, redirects and status→error mapping live here
 * and nowhere else; the endpoint modules (builds.ts, jobs.ts, ...) only describe requests.
 */

export interface CiClientOptions {
  deployments: Partial<Record<Deployment, DeploymentConfig>>;
  mediaType: string;
  versionHeader: string;
  connectTimeoutMs: number;
  requestTimeoutMs: number;
  maxRetries: number;
  /** `<package name>/<version>` */
  userAgent: string;
  logger?: Logger;
  /** Exponential backoff between retries: base doubles per attempt up to max, with jitter. */
  backoff?: { baseMs: number; maxMs: number };
  /** A Retry-After longer than this is not waited for: the caller gets `rate_limited` at once. */
  maxRetryAfterMs?: number;
  /** JSON and text answers larger than this are refused (logs are streamed instead). */
  maxBodyBytes?: number;
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Called after every attempt; main wires metrics to it. */
  onAttempt?: (info: AttemptInfo) => void;
}

export interface AttemptInfo {
  deployment: Deployment;
  method: HttpMethod;
  route: string;
  status: number | undefined;
  errorCode: string | undefined;
  ms: number;
  attempt: number;
}

export type QueryValue = string | number | boolean | undefined | ReadonlyArray<string | number>;
export type Query = Record<string, QueryValue>;

export type RequestBody = { json: unknown } | { raw: string; contentType: string };

export interface RequestSpec {
  method: HttpMethod;
  /** Path below the API base, segments already encoded. */
  path: string;
  query?: Query;
  /** `v2` (V2.1 media type) unless `v3`. */
  api?: 'v2' | 'v3';
  /** V2 only: JSON (default), plain text, or the chunked log form. */
  accept?: 'json' | 'text' | 'chunked';
  body?: RequestBody;
  /** Refuse locally, without a request, when the session has no token. */
  requiresAuth?: boolean;
}

type Outcome<T> =
  | { ok: true; status: number; value: T }
  | { ok: false; status: number; body: string; retryAfter: string | undefined };

const IDEMPOTENT: ReadonlySet<HttpMethod> = new Set(['GET', 'PUT', 'DELETE']);

export class CiClient {
  readonly #options: Required<Omit<CiClientOptions, 'logger' | 'onAttempt'>> &
    Pick<CiClientOptions, 'logger' | 'onAttempt'>;
  readonly #agents = new Map<Deployment, Agent>();

  constructor(options: CiClientOptions) {
    this.#options = {
      backoff: { baseMs: 250, maxMs: 4_000 },
      maxRetryAfterMs: 10_000,
      maxBodyBytes: 16 * 1024 * 1024,
      sleep: (ms) => delay(ms),
      random: Math.random,
      ...options,
    };
  }

  get deployments(): DeploymentConfig[] {
    return Object.values(this.#options.deployments).filter((d): d is DeploymentConfig => d !== undefined);
  }

  deployment(name: Deployment): DeploymentConfig {
    const config = this.#options.deployments[name];
    if (!config)
      throw new CiError('bad_request', `The ${name} deployment is not configured`, { rule: 'deployment' });
    return config;
  }

  /** A session talks to one deployment with (at most) one token: the token's own deployment. */
  session(name: Deployment, token?: string): CiSession {
    return new CiSession(this, this.deployment(name), token);
  }

  async close(): Promise<void> {
    await Promise.all([...this.#agents.values()].map((agent) => agent.close()));
    this.#agents.clear();
  }

  /** @internal used by CiSession */
  agentFor(name: Deployment): Agent {
    let agent = this.#agents.get(name);
    if (!agent) {
      agent = new Agent({
        connect: { timeout: this.#options.connectTimeoutMs },
        keepAliveTimeout: 30_000,
        connections: 32,
      });
      this.#agents.set(name, agent);
    }
    return agent;
  }

  /** @internal */
  get options() {
    return this.#options;
  }
}

export class CiSession {
  readonly #client: CiClient;
  readonly #token: string | undefined;

  constructor(
    client: CiClient,
    readonly deployment: DeploymentConfig,
    token?: string,
  ) {
    this.#client = client;
    this.#token = token;
  }

  get name(): Deployment {
    return this.deployment.name;
  }

  get authenticated(): boolean {
    return this.#token !== undefined;
  }

  /** Never serialise the token (loggers call toJSON). */
  toJSON(): object {
    return { deployment: this.deployment.name, authenticated: this.authenticated };
  }

  /** A JSON answer, validated by `schema`; an empty V2.1 answer to a read means "no access". */
  async json<S extends z.ZodType>(spec: RequestSpec, schema: S): Promise<z.output<S>> {
    const { status, text } = await this.#send(spec, (result) => this.#readWhole(spec, result));
    return parseJson(text, schema, { ...this.#errorData(spec), status }, spec.method === 'GET');
  }

  /** A JSON answer whose shape the spec does not give (cancel, restart, delete ...): kept as is. */
  async send(spec: RequestSpec): Promise<unknown> {
    const { text } = await this.#send(spec, (result) => this.#readWhole(spec, result));
    if (text.trim() === '') return undefined;
    try {
      return JSON.parse(text);
    } catch {
      return text;
    }
  }

  async text(spec: RequestSpec): Promise<string> {
    return (await this.#send(spec, (result) => this.#readWhole(spec, result))).text;
  }

  /** The body as a byte stream, for answers of any size (whole logs). Errors while reading become CiErrors. */
  async stream(spec: RequestSpec): Promise<AsyncIterable<Uint8Array>> {
    const result = await this.#send(spec, async (answer) => answer);
    const base = this.#errorData(spec);
    return (async function* () {
      try {
        for await (const chunk of result.body) yield chunk as Uint8Array;
      } catch (error) {
        throw errorFromTransport(error, base);
      }
    })();
  }

  #errorData(spec: RequestSpec): CiErrorData {
    return { deployment: this.deployment.name, method: spec.method, path: spec.path };
  }

  async #readWhole(spec: RequestSpec, result: ExchangeResult): Promise<{ status: number; text: string }> {
    const text = await readText(result.body, this.#client.options.maxBodyBytes, this.#errorData(spec));
    return { status: result.status, text };
  }

  /**
   * Sends with retries. `read` takes a 2xx answer inside the attempt, so a body that is cut off or
   * too slow fails (and is retried) like a failed exchange, and never escapes as an undici error.
   */
  async #send<T>(spec: RequestSpec, read: (result: ExchangeResult) => Promise<T>): Promise<T> {
    const base = this.#errorData(spec);
    if (spec.requiresAuth && !this.#token) {
      throw new CiError(
        'unauthenticated',
        `Signing in to ${this.deployment.name} is required for this`,
        base,
      );
    }
    const options = this.#client.options;
    for (let attempt = 0; ; attempt++) {
      const started = performance.now();
      let error: CiError;
      let status: number | undefined;
      try {
        const outcome = await this.#attempt(spec, base, read);
        status = outcome.status;
        if (outcome.ok) {
          this.#report(spec, attempt, started, status, undefined);
          return outcome.value;
        }
        error = errorFromResponse(
          { status, body: outcome.body, retryAfter: outcome.retryAfter, isRead: spec.method === 'GET' },
          base,
        );
      } catch (thrown) {
        error = errorFromTransport(thrown, base);
      }
      this.#report(spec, attempt, started, status, error.code);

      const wait = this.#retryDelay(spec, attempt, error);
      if (wait === undefined) throw error;
      options.logger?.debug(
        { path: spec.path, attempt, waitMs: wait, code: error.code },
        'retrying CI request',
      );
      await options.sleep(wait);
    }
  }

  /** One exchange and the reading of its answer, within the total timeout (a stream: until `read` returns). */
  async #attempt<T>(
    spec: RequestSpec,
    base: CiErrorData,
    read: (result: ExchangeResult) => Promise<T>,
  ): Promise<Outcome<T>> {
    const options = this.#client.options;
    const controller = new AbortController();
    const timer = setTimeout(
      () => controller.abort(new DOMException('request timed out', 'TimeoutError')),
      options.requestTimeoutMs,
    );
    try {
      const result = await exchange(
        this.#client.agentFor(this.deployment.name),
        {
          method: spec.method,
          url: this.#url(spec),
          headers: this.#headers(spec),
          authorization: this.#token ? `token ${this.#token}` : undefined,
          authorizedOrigin: new URL(this.deployment.apiUrl).origin,
          body: encodeBody(spec.body),
          signal: controller.signal,
          bodyTimeoutMs: options.requestTimeoutMs,
        },
        base,
      );
      if (result.status >= 200 && result.status < 300) {
        return { ok: true, status: result.status, value: await read(result) };
      }
      return {
        ok: false,
        status: result.status,
        body: await readText(result.body, 64 * 1024, base).catch(() => ''),
        retryAfter: headerValue(result.headers['retry-after']),
      };
    } finally {
      clearTimeout(timer);
    }
  }

  #retryDelay(spec: RequestSpec, attempt: number, error: CiError): number | undefined {
    const options = this.#client.options;
    if (!IDEMPOTENT.has(spec.method) || !error.transient || attempt >= options.maxRetries) return undefined;
    const retryAfter = error.data.retryAfterMs;
    if (retryAfter !== undefined) return retryAfter <= options.maxRetryAfterMs ? retryAfter : undefined;
    const exponential = Math.min(options.backoff.maxMs, options.backoff.baseMs * 2 ** attempt);
    return Math.round(exponential * (0.5 + options.random() / 2));
  }

  #report(spec: RequestSpec, attempt: number, started: number, status?: number, errorCode?: string): void {
    this.#client.options.onAttempt?.({
      deployment: this.deployment.name,
      method: spec.method,
      route: spec.path.replace(/\/\d+(?=\/|$)/g, '/:id'),
      status,
      errorCode,
      ms: performance.now() - started,
      attempt,
    });
  }

  #url(spec: RequestSpec): URL {
    const url = new URL(`${this.deployment.apiUrl}${spec.path}`);
    for (const [key, value] of Object.entries(spec.query ?? {})) {
      if (value === undefined) continue;
      if (Array.isArray(value)) for (const item of value) url.searchParams.append(`${key}[]`, String(item));
      else url.searchParams.set(key, String(value));
    }
    return url;
  }

  #headers(spec: RequestSpec): Record<string, string> {
    const { mediaType, versionHeader, userAgent } = this.#client.options;
    const headers: Record<string, string> = { 'user-agent': userAgent };
    if (spec.api === 'v3') {
      // V3 wants all three on every call, bodies or not (the migrate POST has an empty body).
      headers[versionHeader.toLowerCase()] = '3';
      headers.accept = 'application/json';
      headers['content-type'] = 'application/json';
      return headers;
    }
    headers.accept =
      spec.accept === 'text'
        ? 'text/plain'
        : spec.accept === 'chunked'
          ? `${mediaType}; chunked=true`
          : mediaType;
    if (spec.body) headers['content-type'] = contentTypeOf(spec.body);
    return headers;
  }
}

function encodeBody(body: RequestBody | undefined): string | undefined {
  if (!body) return undefined;
  if ('json' in body) return JSON.stringify(body.json);
  return body.raw;
}

function contentTypeOf(body: RequestBody): string {
  if ('json' in body) return 'application/json';
  return body.contentType;
}

function parseJson<S extends z.ZodType>(
  text: string,
  schema: S,
  data: CiErrorData,
  isRead: boolean,
): z.output<S> {
  let json: unknown;
  const trimmed = text.trim();
  if (isRead && (trimmed === '' || trimmed === 'null' || trimmed === '{}')) {
    // V2.1: "200 with an empty response" for a private resource the caller may not see.
    throw new CiError('not_found', 'Not found or no access', data);
  }
  try {
    json = JSON.parse(trimmed);
  } catch (cause) {
    throw new CiError('invalid_response', 'The CI service answered with malformed JSON', data, { cause });
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    const fieldPath = issue?.path.map(String).join('.') || '(root)';
    throw new CiError(
      'invalid_response',
      `Unexpected answer from the CI service at ${fieldPath}: ${issue?.message}`,
      {
        ...data,
        fieldPath,
      },
    );
  }
  return parsed.data;
}
