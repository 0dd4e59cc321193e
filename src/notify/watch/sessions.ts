import type { CiSession } from '../../ci/client.js';
import type { Deployment } from '../../config.js';
import { openSession } from '../../ops/actor.js';
import type { Services } from '../../services.js';

/** The Slack user whose linked CI token watches a subscription, on one deployment. */
export interface Creator {
  deployment: Deployment;
  teamId: string;
  userId: string;
}

export const creatorKey = (c: Creator) => `${c.deployment}:${c.teamId}:${c.userId}`;

/**
 * CI sessions with subscription creators' own tokens, kept for a short while so that polling many
 * repositories does not read and decrypt the same token from Redis each time. `openSession` throws
 * NotLinkedError when the creator has no linked account (any more).
 */
export class CreatorSessions {
  readonly #cache = new Map<string, { session: Promise<CiSession>; until: number }>();

  constructor(
    private readonly services: Services,
    private readonly cacheMs: number,
  ) {}

  open(creator: Creator): Promise<CiSession> {
    const key = creatorKey(creator);
    const now = Date.now();
    const cached = this.#cache.get(key);
    if (cached && cached.until > now) return cached.session;
    const session = openSession(
      this.services,
      { teamId: creator.teamId, userId: creator.userId },
      creator.deployment,
    ).then((s) => s.session);
    this.#cache.set(key, { session, until: now + this.cacheMs });
    session.catch(() => this.forget(creator));
    return session;
  }

  /** Drops a cached session (its token was refused), so the next `open` reads the token again. */
  forget(creator: Creator): void {
    this.#cache.delete(creatorKey(creator));
  }
}
