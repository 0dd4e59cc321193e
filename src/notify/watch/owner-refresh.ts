import { listRepos } from '../../ci/repos.js';
import type { Kv } from '../../store/kv.js';
import { once } from '../../store/once.js';
import type { Subscription } from '../../store/subscriptions.js';
import type { WatchContext } from './context.js';
import type { CreatorSessions } from './sessions.js';
import { rejectionReason } from './tokens.js';

/**
 * Lists the repositories of each `owner/*` subscription again every `intervalMs`, with its
 * creator's token, and stores the list (`refreshOwner`): new repositories get watched, vanished ones
 * dropped. One process per subscription and interval does it (a `once` claim per time slot). A
 * creator whose token is refused pauses the subscription; an empty answer is not trusted (kept).
 */
export class OwnerRefresher {
  /** Subscription id → the time slot this process last considered it in. */
  readonly #lastSlot = new Map<string, number>();

  constructor(
    private readonly ctx: WatchContext,
    private readonly options: { kv: Kv; sessions: CreatorSessions; intervalMs: number },
  ) {}

  async refreshDue(subscriptions: Iterable<Subscription>): Promise<void> {
    const slot = Math.floor(Date.now() / this.options.intervalMs);
    const owners = new Map<string, Subscription>();
    for (const sub of subscriptions) if (sub.target.kind === 'owner') owners.set(sub.id, sub);
    for (const id of this.#lastSlot.keys()) if (!owners.has(id)) this.#lastSlot.delete(id);
    for (const sub of owners.values()) {
      if (this.#lastSlot.get(sub.id) === slot) continue;
      this.#lastSlot.set(sub.id, slot);
      if (!(await once(this.options.kv, `watch-owner:${sub.id}:${slot}`, this.options.intervalMs))) continue;
      await this.#refresh(sub).catch((error: unknown) => {
        this.ctx.services.metrics.countWatchError('owner_refresh');
        this.ctx.logger.warn(
          { err: error, subscription: sub.id },
          'could not refresh the repositories of an owner subscription',
        );
      });
    }
  }

  async #refresh(sub: Subscription): Promise<void> {
    if (sub.target.kind !== 'owner') return;
    const owner = sub.target.owner;
    const creator = { deployment: sub.deployment, teamId: sub.teamId, userId: sub.createdBy };
    let repos: { id: number; slug: string }[];
    try {
      const session = await this.options.sessions.open(creator);
      this.ctx.count('owner_refresh');
      const listed = await listRepos(session, { ownerName: owner });
      repos = listed
        .filter((repo) => repo.slug.split('/')[0]?.toLowerCase() === owner.toLowerCase())
        .map((repo) => ({ id: repo.id, slug: repo.slug }));
    } catch (error) {
      const reason = rejectionReason(error);
      // not_found on a listing says nothing about the subscription's access; only a refused token pauses.
      if (reason === 'token_rejected' || reason === 'not_linked') {
        this.options.sessions.forget(creator);
        await this.ctx.tokens.pause(sub, reason);
        return;
      }
      throw error;
    }
    if (repos.length === 0) {
      this.ctx.logger.info(
        { subscription: sub.id },
        'an owner listing came back empty; keeping the previous list',
      );
      return;
    }
    await this.ctx.services.subscriptions.refreshOwner(sub.id, repos);
  }
}
