import { z } from 'zod';

/**
 * The environment contract. `loadConfig(env)` is the only place that reads environment variables;
 * everything else receives the typed `Config` it returns. Problems are collected and reported all at
 * once, and no message ever repeats a variable's value (several of them are secrets).
 */

export const DEPLOYMENTS = ['com', 'org', 'enterprise'] as const;
export type Deployment = (typeof DEPLOYMENTS)[number];

export interface DeploymentConfig {
  name: Deployment;
  apiUrl: string;
  webUrl: string;
}

export interface Config {
  slack: {
    botToken: string | undefined;
    signingSecret: string | undefined;
    appToken: string | undefined;
    /** Socket Mode when an app-level token is given, HTTP otherwise. */
    mode: 'socket' | 'http';
    apiUrl: string;
    /** Per-method call budgets per workspace per minute, over Slack's tier defaults. */
    budgets: Record<string, number>;
  };
  port: number;
  redisUrl: string | undefined;
  /** Decoded 32-byte keys; the first encrypts, every one decrypts. Empty only without Redis. */
  tokenEncryptionKeys: Buffer[];
  ci: {
    deployments: Partial<Record<Deployment, DeploymentConfig>>;
    defaultDeployment: Deployment;
    mediaType: string;
    versionHeader: string;
    connectTimeoutMs: number;
    requestTimeoutMs: number;
    maxRetries: number;
  };
  logLevel: LogLevel;
  logUpdateIntervalMs: number;
  notifyPollIntervalMs: number;
  maxFollowedJobs: number;
  leaseTtlMs: number;
}

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export class ConfigError extends Error {
  readonly code = 'invalid_config';
  constructor(readonly problems: string[]) {
    super(`The app cannot start; fix these settings:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
  }
}

const HOW_TO_GET = {
  SLACK_BOT_TOKEN:
    'create the Slack app from manifest.yml, install it to your workspace, then copy "Bot User OAuth Token" (xoxb-…) from OAuth & Permissions',
  SLACK_SIGNING_SECRET:
    'copy "Signing Secret" from Basic Information of your Slack app (or set SLACK_APP_TOKEN to use Socket Mode instead of HTTP)',
  TOKEN_ENCRYPTION_KEY: 'generate one with: openssl rand -base64 32',
} as const;

/** Empty strings count as unset, as they do in most .env files and container runtimes. */
const optionalText = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

const httpUrl = (name: string) =>
  z.string().refine(
    (v) => {
      try {
        const u = new URL(v);
        return u.protocol === 'http:' || u.protocol === 'https:';
      } catch {
        return false;
      }
    },
    { message: `${name} must be an http:// or https:// URL` },
  );

const positiveInt = (name: string, fallback: number) =>
  optionalText.pipe(
    z
      .string()
      .regex(/^\d+$/, { message: `${name} must be a whole number` })
      .transform(Number)
      .refine((n) => n > 0, { message: `${name} must be greater than 0` })
      .optional()
      .transform((n) => n ?? fallback),
  );

const nonNegativeInt = (name: string, fallback: number) =>
  optionalText.pipe(
    z
      .string()
      .regex(/^\d+$/, { message: `${name} must be a whole number` })
      .transform(Number)
      .optional()
      .transform((n) => n ?? fallback),
  );

function decodeKey(entry: string): Buffer | undefined {
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(entry)) return undefined;
  const key = Buffer.from(entry, 'base64');
  return key.length === 32 ? key : undefined;
}

const envSchema = z.object({
  SLACK_BOT_TOKEN: optionalText.pipe(
    z
      .string()
      .startsWith('xoxb-', { message: 'SLACK_BOT_TOKEN must be a bot token starting with xoxb-' })
      .optional(),
  ),
  SLACK_SIGNING_SECRET: optionalText,
  SLACK_APP_TOKEN: optionalText.pipe(
    z
      .string()
      .startsWith('xapp-', { message: 'SLACK_APP_TOKEN must be an app-level token starting with xapp-' })
      .optional(),
  ),
  SLACK_API_URL: optionalText.pipe(httpUrl('SLACK_API_URL').optional()),
  PORT: optionalText.pipe(
    z
      .string()
      .regex(/^\d+$/, { message: 'PORT must be a port number' })
      .transform(Number)
      .refine((n) => n >= 0 && n <= 65535, { message: 'PORT must be between 0 and 65535' })
      .optional()
      .transform((n) => n ?? 3000),
  ),
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .refine((v) => /^rediss?:\/\//.test(v), { message: 'REDIS_URL must start with redis:// or rediss://' })
      .optional(),
  ),
  TOKEN_ENCRYPTION_KEY: optionalText.pipe(
    z
      .string()
      .transform((v) => v.split(',').map((s) => s.trim()))
      .refine((entries) => entries.every((e) => decodeKey(e) !== undefined), {
        message: `TOKEN_ENCRYPTION_KEY must be one or more comma-separated base64 keys of 32 bytes each (${HOW_TO_GET.TOKEN_ENCRYPTION_KEY})`,
      })
      .transform((entries) => entries.map((e) => decodeKey(e) as Buffer))
      .optional(),
  ),
  // A variable that is set but empty disables the open-source deployment, so this one keeps ''.
  CI_ORG_API_URL: z.string().optional(),
  CI_COM_API_URL: optionalText.pipe(httpUrl('CI_COM_API_URL').optional()),
  CI_ENTERPRISE_API_URL: optionalText.pipe(httpUrl('CI_ENTERPRISE_API_URL').optional()),
  CI_COM_WEB_URL: optionalText.pipe(httpUrl('CI_COM_WEB_URL').optional()),
  CI_ORG_WEB_URL: optionalText.pipe(httpUrl('CI_ORG_WEB_URL').optional()),
  CI_ENTERPRISE_WEB_URL: optionalText.pipe(httpUrl('CI_ENTERPRISE_WEB_URL').optional()),
  CI_DEFAULT_DEPLOYMENT: optionalText.pipe(
    z
      .enum(DEPLOYMENTS, { message: 'CI_DEFAULT_DEPLOYMENT must be com, org or enterprise' })
      .optional()
      .transform((v) => v ?? 'com'),
  ),
  CI_MEDIA_TYPE: optionalText.transform((v) => v ?? 'application/vnd.travis-ci.2.1+json'),
  CI_VERSION_HEADER: optionalText.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9-]+$/, { message: 'CI_VERSION_HEADER must be an HTTP header name' })
      .optional()
      .transform((v) => v ?? 'Travis-API-Version'),
  ),
  CI_CONNECT_TIMEOUT_MS: positiveInt('CI_CONNECT_TIMEOUT_MS', 5_000),
  CI_REQUEST_TIMEOUT_MS: positiveInt('CI_REQUEST_TIMEOUT_MS', 15_000),
  CI_MAX_RETRIES: nonNegativeInt('CI_MAX_RETRIES', 2),
  LOG_LEVEL: optionalText.pipe(
    z
      .enum(LOG_LEVELS, { message: `LOG_LEVEL must be one of ${LOG_LEVELS.join(', ')}` })
      .optional()
      .transform((v) => v ?? 'info'),
  ),
  LOG_UPDATE_INTERVAL_MS: positiveInt('LOG_UPDATE_INTERVAL_MS', 2_000),
  NOTIFY_POLL_INTERVAL_MS: positiveInt('NOTIFY_POLL_INTERVAL_MS', 15_000),
  MAX_FOLLOWED_JOBS: positiveInt('MAX_FOLLOWED_JOBS', 2_000),
  LEASE_TTL_MS: positiveInt('LEASE_TTL_MS', 30_000),
  SLACK_RATE_BUDGETS: optionalText.pipe(
    z
      .string()
      .transform((v) => v.split(',').map((pair) => pair.trim().split('=')))
      .refine(
        (pairs) =>
          pairs.every(
            ([method, n]) =>
              /^[a-z]+\.[A-Za-z.]+$/.test(method ?? '') && /^\d+$/.test(n ?? '') && Number(n) > 0,
          ),
        {
          message:
            'SLACK_RATE_BUDGETS must look like chat.update=600,chat.postMessage=120 (calls per minute)',
        },
      )
      .transform((pairs) => Object.fromEntries(pairs.map(([method, n]) => [method, Number(n)])))
      .optional()
      .transform((v) => v ?? {}),
  ),
});

/** Every environment variable the app reads (the contract .env.example and the README document). */
export const ENV_VARIABLES: readonly string[] = Object.keys(envSchema.shape);

/** `api.X` becomes `app.X`; `https://host/api` becomes `https://host`. */
export function webUrlFromApiUrl(apiUrl: string): string {
  const url = new URL(apiUrl);
  if (url.pathname.replace(/\/+$/, '').endsWith('/api')) {
    url.pathname = url.pathname.replace(/\/+$/, '').replace(/\/api$/, '');
  } else if (url.hostname.startsWith('api.')) {
    url.hostname = `app.${url.hostname.slice(4)}`;
  }
  return url.toString().replace(/\/+$/, '');
}

const trimSlash = (u: string) => u.replace(/\/+$/, '');

type Env = z.infer<typeof envSchema>;

/** Each variable is parsed on its own, so one bad value does not hide the problems of the others. */
function parseEach(env: Record<string, string | undefined>, problems: string[]): Partial<Env> {
  const values: Record<string, unknown> = {};
  for (const [name, schema] of Object.entries(envSchema.shape)) {
    const result = schema.safeParse(env[name]);
    if (result.success) values[name] = result.data;
    else
      for (const issue of result.error.issues)
        problems.push(issue.message.includes(name) ? issue.message : `${name}: ${issue.message}`);
  }
  return values as Partial<Env>;
}

export function loadConfig(env: Record<string, string | undefined>): Config {
  const problems: string[] = [];
  const values = parseEach(env, problems);
  const invalid = new Set(problems.map((p) => p.split(/[ :]/)[0]));
  const e = values as Env;

  const mode = e.SLACK_APP_TOKEN ? 'socket' : 'http';
  if (!e.SLACK_BOT_TOKEN && !invalid.has('SLACK_BOT_TOKEN'))
    problems.push(`SLACK_BOT_TOKEN is missing: ${HOW_TO_GET.SLACK_BOT_TOKEN}`);
  if (mode === 'http' && !e.SLACK_SIGNING_SECRET) {
    problems.push(
      `SLACK_SIGNING_SECRET is missing (needed in HTTP mode): ${HOW_TO_GET.SLACK_SIGNING_SECRET}`,
    );
  }
  if (e.REDIS_URL && !e.TOKEN_ENCRYPTION_KEY && !invalid.has('TOKEN_ENCRYPTION_KEY')) {
    problems.push(
      `TOKEN_ENCRYPTION_KEY is missing (needed with REDIS_URL to encrypt linked CI tokens): ${HOW_TO_GET.TOKEN_ENCRYPTION_KEY}`,
    );
  }

  const deployments: Config['ci']['deployments'] = {};
  const orgUrl = e.CI_ORG_API_URL === undefined ? 'https://api.travis-ci.org' : e.CI_ORG_API_URL.trim();
  const apiUrls: Record<Deployment, string | undefined> = {
    com: e.CI_COM_API_URL ?? 'https://api.travis-ci.com',
    org: orgUrl === '' ? undefined : orgUrl,
    enterprise: e.CI_ENTERPRISE_API_URL,
  };
  const webUrls: Record<Deployment, string | undefined> = {
    com: e.CI_COM_WEB_URL,
    org: e.CI_ORG_WEB_URL,
    enterprise: e.CI_ENTERPRISE_WEB_URL,
  };
  for (const name of DEPLOYMENTS) {
    const apiUrl = apiUrls[name];
    if (!apiUrl) continue;
    if (!httpUrl('').safeParse(apiUrl).success) {
      problems.push(`CI_${name.toUpperCase()}_API_URL must be an http:// or https:// URL`);
      continue;
    }
    deployments[name] = {
      name,
      apiUrl: trimSlash(apiUrl),
      webUrl: trimSlash(webUrls[name] ?? webUrlFromApiUrl(apiUrl)),
    };
  }
  if (e.CI_DEFAULT_DEPLOYMENT && !deployments[e.CI_DEFAULT_DEPLOYMENT]) {
    problems.push(
      `CI_DEFAULT_DEPLOYMENT is ${e.CI_DEFAULT_DEPLOYMENT}, but that deployment has no API URL (set CI_${e.CI_DEFAULT_DEPLOYMENT.toUpperCase()}_API_URL)`,
    );
  }

  if (problems.length > 0) throw new ConfigError(problems);

  return {
    slack: {
      botToken: e.SLACK_BOT_TOKEN,
      signingSecret: e.SLACK_SIGNING_SECRET,
      appToken: e.SLACK_APP_TOKEN,
      mode,
      apiUrl: e.SLACK_API_URL ?? 'https://slack.com/api/',
      budgets: e.SLACK_RATE_BUDGETS,
    },
    port: e.PORT,
    redisUrl: e.REDIS_URL,
    tokenEncryptionKeys: e.TOKEN_ENCRYPTION_KEY ?? [],
    ci: {
      deployments,
      defaultDeployment: e.CI_DEFAULT_DEPLOYMENT,
      mediaType: e.CI_MEDIA_TYPE,
      versionHeader: e.CI_VERSION_HEADER,
      connectTimeoutMs: e.CI_CONNECT_TIMEOUT_MS,
      requestTimeoutMs: e.CI_REQUEST_TIMEOUT_MS,
      maxRetries: e.CI_MAX_RETRIES,
    },
    logLevel: e.LOG_LEVEL,
    logUpdateIntervalMs: e.LOG_UPDATE_INTERVAL_MS,
    notifyPollIntervalMs: e.NOTIFY_POLL_INTERVAL_MS,
    maxFollowedJobs: e.MAX_FOLLOWED_JOBS,
    leaseTtlMs: e.LEASE_TTL_MS,
  };
}
