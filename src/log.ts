import { type Logger, pino } from 'pino';
import type { LogLevel } from './config.js';

export type { Logger };

/**
 * Anything that may hold a credential is censored by key, and token-shaped strings are masked
 * wherever they appear in a message, so a token pasted into the wrong field never reaches the logs.
 */
const REDACT_PATHS = [
  'token',
  '*.token',
  'ciToken',
  '*.ciToken',
  'accessToken',
  '*.accessToken',
  'access_token',
  '*.access_token',
  'github_token',
  '*.github_token',
  'authorization',
  '*.authorization',
  '*.headers.authorization',
  '*.headers.Authorization',
  'botToken',
  'appToken',
  'signingSecret',
  'value',
  '*.value',
];

const TOKEN_PATTERN =
  /\b(xox[abprs]-[A-Za-z0-9-]+|xapp-[A-Za-z0-9-]+|gh[pousr]_[A-Za-z0-9]{20,}|token [A-Za-z0-9_-]{12,})/g;

export function maskSecrets(text: string): string {
  return text.replace(TOKEN_PATTERN, '[redacted]');
}

export function createLogger(level: LogLevel, destination?: pino.DestinationStream): Logger {
  return pino(
    {
      level,
      redact: { paths: REDACT_PATHS, censor: '[redacted]' },
      hooks: {
        logMethod(args, method) {
          const masked = args.map((a) => (typeof a === 'string' ? maskSecrets(a) : a)) as typeof args;
          method.apply(this, masked);
        },
      },
    },
    destination,
  );
}
