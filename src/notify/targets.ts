import { isFinished } from '../ci/schemas.js';
import { ownCommitRecipients } from '../ops/notify-me.js';
import type { Services } from '../services.js';
import type { Subscription } from '../store/subscriptions.js';
import { placement, shouldNotify } from './filters.js';
import { type BuildSnapshot, factsOf } from './snapshot.js';

/**
 * Where a build's notification goes: one target per channel (however many subscriptions of that
 * channel cover the repository) and one per person who asked for direct messages about their own
 * commits (however many channels subscribe the repository).
 */

export interface ChannelTarget {
  kind: 'channel';
  teamId: string;
  channelId: string;
  /** The channel's subscriptions covering the repository, the one that decides first. */
  subscriptions: Subscription[];
  /** Whether the message should be posted if it does not exist yet (an existing one is always edited). */
  post: boolean;
  reason: string;
  /** Failure logs in a thread under the message, or in the channel (`threads:off`). */
  placement: 'thread' | 'channel';
  /** Whose linked token reads the logs: the creator of the deciding subscription. */
  readerUserId: string;
}

export interface DirectTarget {
  kind: 'direct';
  teamId: string;
  userId: string;
  /** A direct message appears when the build finishes; once there, it follows the build. */
  post: boolean;
}

export type Target = ChannelTarget | DirectTarget;

/**
 * One target per channel. A channel subscribed both to a repository and to its owner (`owner/*`)
 * gets one message: the repository subscription decides (it is the more specific), and when it
 * would not post, the first other subscription that would.
 */
export function channelTargets(snapshot: BuildSnapshot, subscriptions: Subscription[]): ChannelTarget[] {
  const byChannel = new Map<string, Subscription[]>();
  for (const sub of subscriptions) {
    if (sub.status !== 'active') continue;
    const key = `${sub.teamId}:${sub.channelId}`;
    byChannel.set(key, [...(byChannel.get(key) ?? []), sub]);
  }
  const facts = factsOf(snapshot);
  const targets: ChannelTarget[] = [];
  for (const subs of byChannel.values()) {
    const ordered = [...subs].sort((a, b) => specificity(a) - specificity(b));
    const decisions = ordered.map((sub) => ({
      sub,
      decision: shouldNotify(sub.filters, facts, snapshot.previousState),
    }));
    const chosen = decisions.find((d) => d.decision.post) ?? decisions[0];
    if (!chosen) continue;
    targets.push({
      kind: 'channel',
      teamId: chosen.sub.teamId,
      channelId: chosen.sub.channelId,
      subscriptions: ordered,
      post: chosen.decision.post,
      reason: chosen.decision.reason,
      placement: placement(chosen.sub.filters),
      readerUserId: chosen.sub.createdBy,
    });
  }
  return targets;
}

const specificity = (sub: Subscription) => (sub.target.kind === 'repo' ? 0 : 1);

/**
 * The people of each team subscribing the repository who turned `/ci notify me on` and authored
 * the build's commit.
 */
export async function directTargets(
  services: Services,
  snapshot: BuildSnapshot,
  subscriptions: Subscription[],
): Promise<DirectTarget[]> {
  const { commit } = snapshot;
  if (!commit) return [];
  const teams = [...new Set(subscriptions.filter((s) => s.status === 'active').map((s) => s.teamId))];
  const targets: DirectTarget[] = [];
  for (const teamId of teams) {
    const users = await ownCommitRecipients(services, teamId, snapshot.deployment, {
      authorName: commit.author_name ?? null,
      authorEmail: commit.author_email ?? null,
    });
    for (const userId of users) {
      targets.push({ kind: 'direct', teamId, userId, post: isFinished(snapshot.build.state) });
    }
  }
  return targets;
}
