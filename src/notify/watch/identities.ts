import { getPermissions } from '../../ci/accounts.js';
import { getCurrentUser } from '../../ci/auth.js';
import type { Logger } from '../../log.js';
import { mapLimit } from './concurrency.js';
import type { WatchPurpose } from './context.js';
import { type Creator, type CreatorSessions, creatorKey } from './sessions.js';

export interface CreatorIdentity {
  /** The realtime channels the creator's CI user receives build events on (`private-user-267`). */
  channels: string[];
  /** Repositories the CI user has a permission on: their events reach the user channels. */
  permitted: ReadonlySet<number>;
}

/**
 * Who each subscription creator is on the CI service (GET /users → `channels`) and which
 * repositories their events reach them for (GET /users/permissions), refreshed now and then.
 * A creator whose lookup failed is left out until the next refresh (polling still covers them).
 */
export class CreatorIdentities {
  readonly #known = new Map<string, { identity: CreatorIdentity; fetchedAt: number }>();
  readonly #failedAt = new Map<string, number>();

  constructor(
    private readonly options: {
      sessions: CreatorSessions;
      refreshMs: number;
      count: (purpose: WatchPurpose) => void;
      logger: Logger;
    },
  ) {}

  get(creator: Creator): CreatorIdentity | undefined {
    return this.#known.get(creatorKey(creator))?.identity;
  }

  /** Looks up the creators not known yet, or known for longer than the refresh interval. */
  async refresh(creators: Creator[]): Promise<void> {
    const now = Date.now();
    const wanted = new Set(creators.map(creatorKey));
    for (const key of this.#known.keys()) if (!wanted.has(key)) this.#known.delete(key);
    const due = creators.filter((creator) => {
      const key = creatorKey(creator);
      const fetchedAt = this.#known.get(key)?.fetchedAt ?? this.#failedAt.get(key) ?? 0;
      return now - fetchedAt >= this.options.refreshMs;
    });
    await mapLimit(due, 4, async (creator) => {
      const key = creatorKey(creator);
      try {
        const session = await this.options.sessions.open(creator);
        this.options.count('identity');
        const user = await getCurrentUser(session);
        this.options.count('identity');
        const permissions = await getPermissions(session);
        const permitted = new Set([
          ...permissions.permissions,
          ...permissions.pull,
          ...permissions.push,
          ...permissions.admin,
        ]);
        this.#known.set(key, { identity: { channels: user.channels, permitted }, fetchedAt: Date.now() });
        this.#failedAt.delete(key);
      } catch (error) {
        this.#failedAt.set(key, Date.now());
        this.options.logger.debug({ err: error, creator: key }, 'could not look up a subscription creator');
      }
    });
  }
}
