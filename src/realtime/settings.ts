import { z } from 'zod';
import type { ChannelAuthorizationHandler, PusherOptions } from './pusher-js.js';

/** Where and how to reach a deployment's realtime service: the CI API's `GET /config` → `config.pusher`. */
export interface PusherSettings {
  key: string;
  /** A relay behind a firewall; without it, Pusher's own host for `cluster`. */
  host?: string;
  port?: number;
  /** Prefix before `/app/<key>` on a relay, e.g. `/pusher`. */
  path?: string;
  /** `http`/`ws`: no TLS; `https`/`wss` (the default): TLS. */
  scheme?: string;
  /** When true every channel name gets the prefix `private-`. */
  private?: boolean;
  cluster?: string;
}

export const DEFAULT_CLUSTER = 'mt1';

const SCHEMES = ['http', 'https', 'ws', 'wss'] as const;
const TLS_SCHEMES = new Set<string>(['https', 'wss']);

const nonEmpty = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v));

/**
 * Parses `config.pusher`. Unknown fields are ignored; empty strings count as absent; a port may come
 * as a number or a numeric string. Some installations send `secure` (boolean) instead of `scheme`,
 * so it is honoured when `scheme` is absent.
 */
export const pusherSettingsSchema: z.ZodType<PusherSettings> = z
  .object({
    key: z.string().trim().min(1, { message: 'config.pusher.key is empty' }),
    host: nonEmpty.optional(),
    port: z
      .union([z.number(), z.string().trim().regex(/^\d+$/).transform(Number)])
      .pipe(z.number().int().min(1).max(65535))
      .optional(),
    path: nonEmpty.optional(),
    scheme: nonEmpty
      .transform((v) => v?.toLowerCase())
      .pipe(z.enum(SCHEMES, { message: 'config.pusher.scheme must be http, https, ws or wss' }).optional())
      .optional(),
    secure: z.boolean().optional(),
    private: z.boolean().optional(),
    cluster: nonEmpty.optional(),
  })
  .transform((input) => {
    const settings: PusherSettings = { key: input.key };
    if (input.host !== undefined) settings.host = input.host;
    if (input.port !== undefined) settings.port = input.port;
    if (input.path !== undefined) settings.path = input.path;
    const scheme = input.scheme ?? (input.secure === undefined ? undefined : input.secure ? 'wss' : 'ws');
    if (scheme !== undefined) settings.scheme = scheme;
    if (input.private !== undefined) settings.private = input.private;
    if (input.cluster !== undefined) settings.cluster = input.cluster;
    return settings;
  });

export function usesTls(settings: PusherSettings): boolean {
  return settings.scheme === undefined || TLS_SCHEMES.has(settings.scheme.toLowerCase());
}

/** `pusher/` → `/pusher`; `/` → '' (pusher-js puts the path right before `/app/<key>`). */
function normalisePath(path: string | undefined): string | undefined {
  if (path === undefined) return undefined;
  const trimmed = path.trim().replace(/^\/*/, '/').replace(/\/+$/, '');
  return trimmed === '' ? undefined : trimmed;
}

export interface PusherTimeouts {
  activityTimeoutMs: number;
  pongTimeoutMs: number;
  unavailableTimeoutMs: number;
}

/** pusher-js client options for these settings: WebSocket only (no HTTP fallbacks), no stats. */
export function toPusherOptions(
  settings: PusherSettings,
  timeouts: PusherTimeouts,
  authorize: ChannelAuthorizationHandler,
): PusherOptions {
  const options: PusherOptions = {
    cluster: settings.cluster ?? DEFAULT_CLUSTER,
    forceTLS: usesTls(settings),
    // The 'ws' transport follows forceTLS (ws:// or wss://); the others are browser fallbacks
    // (HTTP streaming/polling) that a relay may not serve.
    enabledTransports: ['ws'],
    enableStats: false,
    activityTimeout: timeouts.activityTimeoutMs,
    pongTimeout: timeouts.pongTimeoutMs,
    unavailableTimeout: timeouts.unavailableTimeoutMs,
    channelAuthorization: { customHandler: authorize },
  };
  if (settings.host !== undefined) options.wsHost = settings.host;
  if (settings.port !== undefined) {
    options.wsPort = settings.port;
    options.wssPort = settings.port;
  }
  const path = normalisePath(settings.path);
  if (path !== undefined) options.wsPath = path;
  return options;
}
