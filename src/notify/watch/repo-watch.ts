import type { CiSession } from '../../ci/client.js';
import type { Kv } from '../../store/kv.js';
import type { Subscription } from '../../store/subscriptions.js';
import { loadRepoState, type RepoState, sameState, saveRepoState } from './repo-state.js';
import type { WatchedRepo } from './units.js';

/** Unfinished builds off the first page followed per poll, in turn, at most. */
export const MAX_DROPPED_FETCHES = 5;

/**
 * What this process knows about one repository it holds: the watched entry (subscriptions), the
 * state shared through Redis, and the subscriber whose token worked last.
 */
export class RepoWatch {
  info: WatchedRepo;
  /** The subscription whose creator's token the last poll used. */
  subscription: Subscription | undefined;
  session: CiSession | undefined;
  #state: RepoState | undefined;
  #loading: Promise<RepoState | undefined> | undefined;
  #savedState: RepoState | undefined;
  #savedAt = 0;
  /** Build id → when it was last fetched as a dropped-off unfinished build (round robin). */
  readonly #droppedFetchedAt = new Map<number, number>();

  constructor(info: WatchedRepo) {
    this.info = info;
  }

  get key(): string {
    return this.info.key;
  }

  /** The shared state, read from Redis once per holding (undefined: first time watched). */
  state(kv: Kv): Promise<RepoState | undefined> {
    if (this.#loading === undefined) {
      const loading = loadRepoState(kv, this.info).then((state) => {
        this.#state = state;
        this.#savedState = state;
        return state;
      });
      this.#loading = loading;
      // A failed read is retried at the next call.
      loading.catch(() => {
        if (this.#loading === loading) this.#loading = undefined;
      });
    }
    return this.#loading.then(() => this.#state);
  }

  use(subscription: Subscription, session: CiSession): void {
    this.subscription = subscription;
    this.session = session;
  }

  /** Open builds not on the first page, the least recently fetched first, at most a few. */
  droppedOpen(onPage: ReadonlySet<number>): number[] {
    const open = (this.#state?.open ?? []).filter((id) => !onPage.has(id));
    const picked = open
      .sort((a, b) => (this.#droppedFetchedAt.get(a) ?? 0) - (this.#droppedFetchedAt.get(b) ?? 0))
      .slice(0, MAX_DROPPED_FETCHES);
    const now = Date.now();
    for (const id of picked) this.#droppedFetchedAt.set(id, now);
    return picked;
  }

  /** A realtime sighting of a build: keep following it while it is unfinished. */
  noteBuild(buildId: number, finished: boolean): void {
    if (!this.#state) return;
    const open = this.#state.open.filter((id) => id !== buildId);
    this.#state = { ...this.#state, open: finished ? open : [...open, buildId] };
  }

  /** The open builds as this process knows them now (polls and realtime). */
  get open(): readonly number[] {
    return this.#state?.open ?? [];
  }

  /** Stores the new state when it changed, or to keep its TTL alive once in a while. */
  async save(kv: Kv, next: RepoState, ttlMs: number): Promise<void> {
    this.#state = next;
    for (const id of this.#droppedFetchedAt.keys())
      if (!next.open.includes(id)) this.#droppedFetchedAt.delete(id);
    const now = Date.now();
    if (sameState(this.#savedState, next) && now - this.#savedAt < ttlMs / 4) return;
    await saveRepoState(kv, this.info, next, ttlMs);
    this.#savedState = next;
    this.#savedAt = now;
  }
}
