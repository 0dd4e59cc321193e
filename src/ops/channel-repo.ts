import type { CiSession } from '../ci/client.js';
import type { Repository } from '../ci/schemas.js';
import type { Deployment } from '../config.js';
import type { Services } from '../services.js';
import type { ChannelDefault } from '../store/channel-defaults.js';
import type { RepoRef } from './references.js';
import { resolveRepo } from './resolve.js';

/** A channel's default repository (`/ci use`): commands in that channel may leave the repository out. */

export interface ChannelPlace {
  teamId: string;
  channelId: string;
}

/**
 * Checks with the user's own token that the repository exists (and that they can see it), then
 * stores its slug with the deployment it lives on.
 */
export async function useChannelRepo(
  services: Services,
  ci: CiSession,
  place: ChannelPlace,
  setBy: string,
  ref: RepoRef,
): Promise<{ repo: Repository; deployment: Deployment }> {
  const repo = await resolveRepo(ci, ref);
  await services.channelDefaults.set(place.teamId, place.channelId, {
    repo: repo.slug,
    deployment: ci.name,
    setBy,
    setAt: services.clock().toISOString(),
  });
  return { repo, deployment: ci.name };
}

export function channelRepo(services: Services, place: ChannelPlace): Promise<ChannelDefault | undefined> {
  return services.channelDefaults.get(place.teamId, place.channelId);
}

/** Forgets the channel's repository; gives the one that was set, if any. */
export async function clearChannelRepo(
  services: Services,
  place: ChannelPlace,
): Promise<ChannelDefault | undefined> {
  const previous = await services.channelDefaults.get(place.teamId, place.channelId);
  if (previous) await services.channelDefaults.clear(place.teamId, place.channelId);
  return previous;
}
