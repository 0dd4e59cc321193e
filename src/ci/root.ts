import { z } from 'zod';
import type { CiSession } from './client.js';
import { configSchema, type ServiceConfig } from './schemas.js';

/** 4.1 GET / — a small greeting object. */
export async function getRoot(ci: CiSession): Promise<Record<string, unknown>> {
  return ci.json({ method: 'GET', path: '/' }, z.record(z.string(), z.unknown()));
}

/** 4.1 GET /config — realtime key (and relay), provider API address and scopes. */
export async function getServiceConfig(ci: CiSession): Promise<ServiceConfig> {
  return (await ci.json({ method: 'GET', path: '/config' }, configSchema)).config;
}
