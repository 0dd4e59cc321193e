import type { FakeContext, MethodSpec } from './context.js';
import type { DecodedCall } from './decode.js';
import { fail, type Outcome, stringArg } from './outcome.js';
import type { RateLimiter } from './rate-limits.js';
import { Recorder } from './recorder.js';
import type { Json, SlackCall } from './types.js';

export interface ApiAnswer {
  status: number;
  headers: Record<string, string>;
  body: Json;
}

/**
 * Answers Web API calls in Slack's order: unknown method, authentication, rate limit, injected
 * failure, then the method itself. Errors are HTTP 200 with `ok: false`, except 429.
 */
export class WebApi {
  readonly calls = new Recorder<SlackCall>((c) => (c.ok ? c.method : `${c.method} (${c.error})`));
  private readonly failures = new Map<string, { error: string; remaining: number }>();

  constructor(
    private readonly ctx: FakeContext,
    private readonly limiter: RateLimiter,
    private readonly methods: Record<string, MethodSpec>,
  ) {}

  failNext(method: string, error: string, times: number): void {
    this.failures.set(method, { error, remaining: times });
  }

  reset(): void {
    this.calls.clear();
    this.failures.clear();
  }

  answer(method: string, decoded: DecodedCall): ApiAnswer {
    const at = this.ctx.now();
    const args = decoded.ok ? decoded.args : {};
    const token = decoded.ok ? decoded.token : undefined;
    const record = (status: number, outcome: Outcome, headers: Record<string, string> = {}): ApiAnswer => {
      const { body } = outcome;
      const call: SlackCall = { method, args, token, at, status, ok: body.ok === true, response: body };
      if (typeof body.error === 'string') call.error = body.error;
      if (outcome.truncated) call.truncated = true;
      this.calls.push(call);
      return { status, headers, body };
    };

    const spec = this.methods[method];
    if (spec === undefined) return record(200, fail('unknown_method'));
    if (!decoded.ok) return record(200, fail(decoded.error));
    const authError = this.authError(spec, token);
    if (authError !== undefined) return record(200, fail(authError));

    const decision = this.limiter.decide(method, spec.tier, stringArg(args, 'channel') ?? '');
    if (decision.limited) {
      return record(429, fail('ratelimited'), { 'Retry-After': String(decision.retryAfterSec) });
    }
    const injected = this.failures.get(method);
    if (injected !== undefined && injected.remaining > 0) {
      injected.remaining -= 1;
      return record(200, fail(injected.error));
    }
    return record(200, spec.handle(args, this.ctx));
  }

  private authError(spec: MethodSpec, token: string | undefined): string | undefined {
    if (token === undefined || token === '') return 'not_authed';
    const { botToken, appToken } = this.ctx.ids;
    if (token !== botToken && token !== appToken) return 'invalid_auth';
    const expected = spec.token === 'app' ? appToken : botToken;
    return token === expected ? undefined : 'not_allowed_token_type';
  }
}
