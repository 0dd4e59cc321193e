import { z } from 'zod';
import type { Kv } from '../../store/kv.js';
import type { WatchUnit } from './units.js';

/** Unfinished builds remembered per repository (older ones are dropped first). */
export const MAX_OPEN_BUILDS = 100;

/**
 * What a watcher remembers about a repository between polls, in Redis so that a restart or a lease
 * handover carries on where the last holder stopped.
 */
export interface RepoState {
  /** The highest build id handled: a build above it that nobody has seen is new. */
  maxBuildId: number;
  /** Builds last seen unfinished: followed with GET /builds/{id} once they drop off the first page. */
  open: number[];
}

const storedState = z.object({
  v: z.literal(1),
  maxBuildId: z.number().int().nonnegative(),
  open: z.array(z.number().int().positive()).max(MAX_OPEN_BUILDS),
});

export const repoStateKey = (unit: WatchUnit) => `watch-repo:${unit.deployment}:${unit.repoId}`;

/** Undefined when the repository was never watched (or not for longer than the state's TTL). */
export async function loadRepoState(kv: Kv, unit: WatchUnit): Promise<RepoState | undefined> {
  const raw = await kv.get(repoStateKey(unit));
  if (raw === null) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  const result = storedState.safeParse(parsed);
  return result.success ? { maxBuildId: result.data.maxBuildId, open: result.data.open } : undefined;
}

export async function saveRepoState(kv: Kv, unit: WatchUnit, state: RepoState, ttlMs: number): Promise<void> {
  const open = [...new Set(state.open)].sort((a, b) => b - a).slice(0, MAX_OPEN_BUILDS);
  const record = { v: 1, maxBuildId: state.maxBuildId, open };
  await kv.set(repoStateKey(unit), JSON.stringify(record), { ttlMs });
}

export function sameState(a: RepoState | undefined, b: RepoState): boolean {
  if (!a || a.maxBuildId !== b.maxBuildId || a.open.length !== b.open.length) return false;
  const open = new Set(a.open);
  return b.open.every((id) => open.has(id));
}
