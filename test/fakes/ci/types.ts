import type { EventEmitter } from 'node:events';
import type { IncomingHttpHeaders } from 'node:http';
import type { FakeCiState } from './state.js';

export interface PusherOptions {
  key: string;
  secret: string;
  host?: string;
  port?: number;
  path?: string;
  scheme?: 'http' | 'https' | 'ws' | 'wss';
  private?: boolean;
}

export interface FakeCiOptions {
  /** Default 'application/vnd.travis-ci.2.1+json'. */
  mediaType?: string;
  /** Default 'Travis-API-Version'. */
  versionHeader?: string;
  /** Default 'com'. 'org': writes to a repository with migrated=true answer 403 migrated_repository. */
  deployment?: 'com' | 'org' | 'enterprise';
  /** Default true: load the fixture world (see seed.ts). */
  seed?: boolean;
  /** Echoed by GET /config as config.pusher (without the secret); the secret signs /pusher/auth. */
  pusher?: PusherOptions;
  /** Default 401 (spec: 401 or 404). */
  privateUnauthenticatedStatus?: 401 | 404;
  /** Default 'status400' (spec: 400, or 200 with an empty response). */
  privateNoAccess?: 'status400' | 'empty200';
  /** How long POST /users/sync keeps is_syncing true. Default 200. */
  syncDurationMs?: number;
  /** Default length of one step of a V3 migration plan (a repository may override it). Default 50. */
  migrationStepMs?: number;
}

export interface ResolvedOptions {
  mediaType: string;
  versionHeader: string;
  deployment: 'com' | 'org' | 'enterprise';
  seed: boolean;
  pusher: PusherOptions;
  privateUnauthenticatedStatus: 401 | 404;
  privateNoAccess: 'status400' | 'empty200';
  syncDurationMs: number;
  migrationStepMs: number;
}

export const DEFAULT_PUSHER: PusherOptions = { key: 'dd3f11c013317df48b50', secret: 'fake-pusher-secret' };

export function resolveOptions(options: FakeCiOptions = {}): ResolvedOptions {
  return {
    mediaType: options.mediaType ?? 'application/vnd.travis-ci.2.1+json',
    versionHeader: options.versionHeader ?? 'Travis-API-Version',
    deployment: options.deployment ?? 'com',
    seed: options.seed ?? true,
    pusher: options.pusher ?? DEFAULT_PUSHER,
    privateUnauthenticatedStatus: options.privateUnauthenticatedStatus ?? 401,
    privateNoAccess: options.privateNoAccess ?? 'status400',
    syncDurationMs: options.syncDurationMs ?? 200,
    migrationStepMs: options.migrationStepMs ?? 50,
  };
}

export interface RecordedRequest {
  method: string;
  /** Path without the query string, exactly as received (percent-encoding kept). */
  path: string;
  query: URLSearchParams;
  headers: IncomingHttpHeaders;
  body: string;
}

export type Fault = { times?: number } & (
  | { status: number; body?: string; headers?: Record<string, string> }
  | { delayMs: number }
  | { malformed: true }
  | { drop: true }
);

export interface FaultMatch {
  method?: string;
  path: string | RegExp;
}

export interface FakeCi {
  /** http://127.0.0.1:<port>, the API base. */
  url: string;
  /** The object storage that serves archived logs. */
  archive: { url: string; requests: RecordedRequest[] };
  state: FakeCiState;
  /** Every request the API received, in order. */
  requests: RecordedRequest[];
  /** The pusher settings in force (the default ones when none were given). */
  pusher: PusherOptions;
  fault(match: FaultMatch, fault: Fault): void;
  clearFaults(): void;
  /** Emits 'pusher' with `{channel, event, data}`. */
  events: EventEmitter;
  close(): Promise<void>;
}
