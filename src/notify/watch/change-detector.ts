import type { Build } from '../../ci/schemas.js';
import { isFinished } from '../../ci/schemas.js';
import type { Deployment } from '../../config.js';
import type { Logger } from '../../log.js';
import type { Metrics } from '../../metrics.js';
import type { Kv } from '../../store/kv.js';
import { forgetOnce, once } from '../../store/once.js';
import type { BuildSink, BuildUpdate } from '../types.js';
import { KeyedQueue } from './concurrency.js';
import type { RepoState } from './repo-state.js';
import { buildSignature, signatureDigest } from './signature.js';

/** Builds remembered in memory (signature, and the whole update while unfinished). */
const MEMORY_LIMIT = 20_000;

export const seenKey = (deployment: Deployment, buildId: number) => `watch-seen:${deployment}:${buildId}`;
export const buildKey = (deployment: Deployment, buildId: number) => `${deployment}:${buildId}`;

export type OfferOutcome = 'emitted' | 'unchanged' | 'stale' | 'history' | 'claimed_elsewhere';

export interface Sighting {
  update: BuildUpdate;
  /** When the data was read (epoch ms); a sighting older than the last one acted on is ignored. */
  observedAt: number;
  /** The stored signature, when the caller already read it (a poll reads them in one batch). */
  seen?: string | null;
  /** The repository's state before this round; undefined the first time it is watched. */
  repoState: RepoState | undefined;
}

interface Memory {
  signature: string;
  observedAt: number;
  /** Kept while the build is unfinished, so a realtime job event can be applied to it. */
  update?: BuildUpdate;
}

export interface ChangeDetectorOptions {
  kv: Kv;
  sink: BuildSink;
  logger: Logger;
  metrics: Metrics;
  /** How long a build's last announced signature is kept in Redis. */
  seenTtlMs: number;
  /** How long the per-change claim shared by all processes lives. */
  onceTtlMs: number;
  /** A build nobody has seen that finished longer ago than this is history, not news. */
  announceWindowMs: number;
  now: () => number;
  onEmitted?: (update: BuildUpdate) => void;
}

/**
 * Decides whether a sighting of a build is a change to announce, and announces it once. The last
 * announced signature of each build lives in Redis (`watch-seen:*`), so a restart or a lease handover
 * does not replay old builds; a short `once` claim per (build, signature) is the final guard when two
 * processes briefly watch the same repository. Sightings of one build are handled one at a time
 * (`queue`), and one older than the last acted on is dropped, so a slow poll cannot undo what a
 * realtime event already announced.
 */
export class ChangeDetector {
  readonly queue = new KeyedQueue();
  readonly #memory = new Map<string, Memory>();

  constructor(private readonly options: ChangeDetectorOptions) {}

  /** The last update seen of an unfinished build, if this process remembers it. */
  lastKnown(deployment: Deployment, buildId: number): BuildUpdate | undefined {
    return this.#memory.get(buildKey(deployment, buildId))?.update;
  }

  /** The stored signatures of these builds (null: never announced). */
  async seenMany(deployment: Deployment, buildIds: readonly number[]): Promise<Map<number, string | null>> {
    const values = await this.options.kv.mget(buildIds.map((id) => seenKey(deployment, id)));
    return new Map(buildIds.map((id, index) => [id, values[index] ?? null]));
  }

  /**
   * Whether a build is old news: finished, not newer than every build already handled, and finished
   * longer ago than the announce window (or at an unknown time). The first time a repository is
   * watched this keeps its history quiet: only unfinished builds and ones that just finished are told.
   */
  isHistory(build: Build, repoState: RepoState | undefined): boolean {
    if (!isFinished(build.state)) return false;
    if (repoState && build.id > repoState.maxBuildId) return false;
    const finishedAt = Date.parse(build.finished_at ?? '');
    return !(Number.isFinite(finishedAt) && this.options.now() - finishedAt <= this.options.announceWindowMs);
  }

  offer(sighting: Sighting): Promise<OfferOutcome> {
    const { deployment, build } = sighting.update;
    return this.queue.run(buildKey(deployment, build.id), () => this.offerLocked(sighting));
  }

  /** `offer` for a caller already running inside `queue` for this build. */
  async offerLocked(sighting: Sighting): Promise<OfferOutcome> {
    const { update, observedAt } = sighting;
    const { kv, sink, seenTtlMs, onceTtlMs, metrics } = this.options;
    const key = buildKey(update.deployment, update.build.id);
    const signature = buildSignature(update.build, update.jobs);
    const memory = this.#memory.get(key);
    if (memory && observedAt < memory.observedAt) return 'stale';
    if (memory?.signature === signature) {
      this.#remember(key, signature, observedAt, update);
      return 'unchanged';
    }
    const seen =
      sighting.seen !== undefined && !memory
        ? sighting.seen
        : await kv.get(seenKey(update.deployment, update.build.id));
    if (seen === signature) {
      this.#remember(key, signature, observedAt, update);
      return 'unchanged';
    }
    if (seen === null && this.isHistory(update.build, sighting.repoState)) return 'history';

    const claim = `watch:${key}:${signatureDigest(signature)}`;
    if (!(await once(kv, claim, onceTtlMs))) {
      this.#remember(key, signature, observedAt, update);
      metrics.countWatchDuplicateSuppressed();
      return 'claimed_elsewhere';
    }
    try {
      await sink.handle(update);
    } catch (error) {
      // Give the claim back so the next round (here or in another process) tries again.
      await forgetOnce(kv, claim).catch((forgetError: unknown) =>
        this.options.logger.warn({ err: forgetError, build: key }, 'could not release a change claim'),
      );
      throw error;
    }
    this.#remember(key, signature, observedAt, update);
    metrics.countWatchUpdate(update.source);
    this.options.onEmitted?.(update);
    await kv.set(seenKey(update.deployment, update.build.id), signature, { ttlMs: seenTtlMs });
    return 'emitted';
  }

  #remember(key: string, signature: string, observedAt: number, update: BuildUpdate): void {
    this.#memory.delete(key);
    this.#memory.set(key, {
      signature,
      observedAt,
      ...(isFinished(update.build.state) ? {} : { update }),
    });
    if (this.#memory.size > MEMORY_LIMIT) {
      const oldest = this.#memory.keys().next();
      if (!oldest.done) this.#memory.delete(oldest.value);
    }
  }
}
