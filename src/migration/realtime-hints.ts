import { z } from 'zod';
import { getCurrentUser } from '../ci/auth.js';
import { openSession } from '../ops/actor.js';
import type { Services } from '../services.js';
import type { MigrationBatch } from '../store/migration-batches.js';

/** Names a repository whose migration moved on; which fields come is not documented, so all are optional. */
export interface MigrationHint {
  id?: number;
  slug?: string;
}

export const MIGRATION_EVENT = 'repository:migration';

const repoFields = z.looseObject({
  id: z.number().int().positive().optional().catch(undefined),
  slug: z.string().max(300).optional().catch(undefined),
});
// Either the repository itself or wrapped as `{repository: …}`, as build events carry theirs.
const hintSchema = z.union([
  z.looseObject({ repository: repoFields }).transform((e) => e.repository),
  repoFields,
]);

/** The repository a `repository:migration` payload names, if it names one. */
export function readMigrationHint(data: unknown): MigrationHint | undefined {
  const parsed = hintSchema.safeParse(data);
  if (!parsed.success) return undefined;
  const { id, slug } = parsed.data;
  if (id === undefined && slug === undefined) return undefined;
  return { ...(id !== undefined ? { id } : {}), ...(slug !== undefined ? { slug } : {}) };
}

/**
 * Listens, on the new deployment's realtime channels of the user who confirmed the batch, for
 * `repository:migration` events, and passes on the repository each one names. The event is only a
 * hint that a status check is worth doing now: the status itself is always read over REST, and
 * polling goes on without realtime. Resolves with the function that stops listening; where the
 * deployment has no realtime or the user's channels cannot be read, there is nothing to stop.
 */
export async function listenForMigrationHints(
  services: Pick<Services, 'accounts' | 'ci' | 'realtime' | 'logger'>,
  batch: Pick<MigrationBatch, 'teamId' | 'userId' | 'to'>,
  onHint: (hint: MigrationHint) => void,
): Promise<() => void> {
  const stops: Array<() => void> = [];
  const stopAll = () => {
    for (const stop of stops.splice(0)) stop();
  };
  try {
    const actor = { teamId: batch.teamId, userId: batch.userId };
    const { session } = await openSession(services, actor, batch.to);
    const { channels } = await getCurrentUser(session);
    const onEvent = (event: string, data: unknown) => {
      if (event !== MIGRATION_EVENT) return;
      const hint = readMigrationHint(data);
      if (hint) onHint(hint);
    };
    for (const channel of channels) {
      stops.push(await services.realtime.subscribe(batch.to, channel, onEvent, async () => session));
    }
  } catch (error) {
    services.logger.debug({ err: error }, 'no realtime migration events for this batch; polling alone');
  }
  return stopAll;
}
