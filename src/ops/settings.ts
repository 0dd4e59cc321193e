import type { CiSession } from '../ci/client.js';
import type { RepoSettings, Repository } from '../ci/schemas.js';
import { getSettings, updateSettings } from '../ci/settings.js';
import type { RepoRef } from './references.js';
import { resolveRepo } from './resolve.js';

/** A repository's build settings: whatever keys the service returns, changed one key at a time. */

export type SettingValue = boolean | number | string;

export interface SettingChange {
  key: string;
  from: SettingValue;
  to: SettingValue;
}

export async function loadRepoSettings(
  ci: CiSession,
  ref: RepoRef,
): Promise<{ repo: Repository; settings: RepoSettings }> {
  const repo = await resolveRepo(ci, ref);
  return { repo, settings: await getSettings(ci, repo.id) };
}

/** The keys whose value differs, in the order of `before`; keys missing from `after` are unchanged. */
export function changedSettings(
  before: Readonly<Record<string, SettingValue>>,
  after: Readonly<Record<string, SettingValue>>,
): SettingChange[] {
  const changes: SettingChange[] = [];
  for (const [key, from] of Object.entries(before)) {
    const to = after[key];
    if (to !== undefined && to !== from) changes.push({ key, from, to });
  }
  return changes;
}

/** PATCHes only the changed keys; nothing is sent when there are none. */
export async function saveRepoSettings(
  ci: CiSession,
  repositoryId: number,
  changes: readonly SettingChange[],
): Promise<void> {
  if (changes.length === 0) return;
  await updateSettings(ci, repositoryId, Object.fromEntries(changes.map((c) => [c.key, c.to])));
}
