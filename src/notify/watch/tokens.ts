import type { CiSession } from '../../ci/client.js';
import { CiError } from '../../ci/errors.js';
import type { Logger } from '../../log.js';
import { NotLinkedError } from '../../ops/describe-error.js';
import type { Services } from '../../services.js';
import type { Subscription } from '../../store/subscriptions.js';
import { type PauseReason, pauseNoticeText } from './pause-notice.js';
import type { CreatorSessions } from './sessions.js';
import type { WatchedRepo } from './units.js';

/** How a refusal of the CI service (or a missing link) reads as a reason to pause; undefined: retry later. */
export function rejectionReason(error: unknown): PauseReason | undefined {
  if (error instanceof NotLinkedError) return 'not_linked';
  if (!(error instanceof CiError)) return undefined;
  if (error.code === 'unauthenticated') return 'token_rejected';
  if (error.code === 'not_found' || error.code === 'insufficient_access') return 'no_access';
  return undefined;
}

export interface WithToken<T> {
  value: T;
  subscription: Subscription;
  session: CiSession;
}

/**
 * Watches a repository with the token of one of its subscribers: the one that worked last time,
 * else the oldest subscription's creator first. A creator whose token the service refuses, or who
 * unlinked, pauses that subscription (the channel is told once, however many processes notice) and
 * the next subscriber is tried. An owner subscription that cannot see one of its repositories is
 * not paused for it: it is skipped there until the next refresh of its repository list.
 */
export class TokenPicker {
  /** Subscriptions paused by this process since the last reload of the watched list. */
  readonly #paused = new Set<string>();
  /** `subscriptionId:repoId` of owner subscriptions that cannot see that repository, until a time. */
  readonly #blind = new Map<string, number>();

  constructor(
    private readonly options: {
      services: Services;
      sessions: CreatorSessions;
      logger: Logger;
      /** How long an owner subscription is skipped for a repository it cannot see. */
      blindMs: number;
    },
  ) {}

  /** The store is the truth again (a paused subscription is no longer listed as watched). */
  reloaded(): void {
    this.#paused.clear();
    const now = Date.now();
    for (const [key, until] of this.#blind) if (until <= now) this.#blind.delete(key);
  }

  /** The subscriptions to try, in order: the preferred one first, then the oldest. */
  candidates(repo: WatchedRepo, preferredId?: string): Subscription[] {
    const now = Date.now();
    const usable = repo.subscriptions.filter(
      (sub) => !this.#paused.has(sub.id) && (this.#blind.get(`${sub.id}:${repo.repoId}`) ?? 0) <= now,
    );
    const preferred = usable.find((sub) => sub.id === preferredId);
    return preferred ? [preferred, ...usable.filter((sub) => sub !== preferred)] : usable;
  }

  /**
   * Runs `request` with the first subscriber's token that the service accepts; undefined when no
   * subscriber can watch the repository now. Errors other than refusals (the service is down) are
   * thrown: the caller retries next round.
   */
  async withToken<T>(
    repo: WatchedRepo,
    preferredId: string | undefined,
    request: (session: CiSession) => Promise<T>,
  ): Promise<WithToken<T> | undefined> {
    const { sessions } = this.options;
    for (const subscription of this.candidates(repo, preferredId)) {
      const creator = {
        deployment: repo.deployment,
        teamId: subscription.teamId,
        userId: subscription.createdBy,
      };
      try {
        const session = await sessions.open(creator);
        return { value: await request(session), subscription, session };
      } catch (error) {
        const reason = rejectionReason(error);
        if (reason === undefined) throw error;
        sessions.forget(creator);
        await this.#refused(repo, subscription, reason);
      }
    }
    return undefined;
  }

  /** Pauses a subscription whose creator can no longer watch it; tells its channel once. */
  async pause(subscription: Subscription, reason: PauseReason): Promise<void> {
    const { services, logger } = this.options;
    this.#paused.add(subscription.id);
    if (!(await services.subscriptions.pause(subscription.id, reason))) return;
    logger.info(
      { subscription: subscription.id, channel: subscription.channelId, reason },
      'paused a subscription whose token can no longer watch it',
    );
    const text = pauseNoticeText(subscription, reason, services.label(subscription.deployment));
    // Not awaited: the outbox paces the channel, and watching goes on meanwhile.
    void services.outbox
      .post({ teamId: subscription.teamId, channel: subscription.channelId, text })
      .catch((error: unknown) =>
        logger.warn(
          { err: error, subscription: subscription.id },
          'could not tell a channel its subscription paused',
        ),
      );
  }

  async #refused(repo: WatchedRepo, subscription: Subscription, reason: PauseReason): Promise<void> {
    if (reason === 'no_access' && subscription.target.kind === 'owner') {
      this.#blind.set(`${subscription.id}:${repo.repoId}`, Date.now() + this.options.blindMs);
      this.options.logger.info(
        { subscription: subscription.id, repo: repo.key },
        'an owner subscription cannot see one of its repositories; skipped there until its list is refreshed',
      );
      return;
    }
    await this.pause(subscription, reason);
  }
}
