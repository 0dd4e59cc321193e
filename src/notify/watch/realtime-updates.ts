import { getBuild } from '../../ci/builds.js';
import { isFinished } from '../../ci/schemas.js';
import type { Deployment } from '../../config.js';
import type { BuildUpdate } from '../types.js';
import { buildKey } from './change-detector.js';
import type { WatchContext } from './context.js';
import { type BuildEvent, eventBuildId, eventRepoId, readBuildEvent } from './realtime-events.js';
import type { ChannelWish } from './realtime-feed.js';
import type { RepoWatch } from './repo-watch.js';
import type { CreatorSessions } from './sessions.js';

export interface RealtimeContext extends WatchContext {
  sessions: CreatorSessions;
  /** The repository, when this process holds it now. */
  held(deployment: Deployment, repoId: number): RepoWatch | undefined;
}

type Change = Pick<BuildUpdate, 'build' | 'commit' | 'jobs'>;

/**
 * A realtime event of a build of a held repository becomes an update. The payload is applied to the
 * last state this process saw of the build (a job event replaces one job); when that is not enough
 * (a stub over 10,000 bytes, a build not seen yet, other job ids) the build is fetched over REST
 * with the repository's watching token, or the channel's. Runs in the build's queue, so events of
 * one build are applied in the order they arrived. Never throws: a failure is logged, and the next
 * poll catches up.
 */
export async function onRealtimeEvent(
  ctx: RealtimeContext,
  wish: ChannelWish,
  name: string,
  data: unknown,
): Promise<void> {
  try {
    const event = readBuildEvent(name, data);
    if (!event) return;
    const { deployment } = wish;
    const named = eventRepoId(event) ?? repoOfChannel(wish.channel);
    if (named !== undefined && !ctx.held(deployment, named)) return;
    const buildId = eventBuildId(event);
    const arrivedAt = Date.now();
    await ctx.detector.queue.run(buildKey(deployment, buildId), async () => {
      const change =
        fromPayload(event, ctx.detector.lastKnown(deployment, buildId)) ??
        (await resolve(ctx, wish, buildId, named));
      const repo = ctx.held(deployment, change.build.repository_id);
      if (!repo) return;
      const update: BuildUpdate = {
        deployment,
        repo: { id: repo.info.repoId, slug: repo.info.slug },
        ...change,
        source: 'realtime',
      };
      const repoState = await repo.state(ctx.services.kv);
      await ctx.detector.offerLocked({ update, observedAt: arrivedAt, repoState });
      repo.noteBuild(buildId, isFinished(change.build.state));
    });
  } catch (error) {
    ctx.logger.warn(
      { err: error, event: name, channel: wish.channel },
      'could not use a realtime event; polling catches up',
    );
  }
}

/** The change an event describes on top of what is known of the build; undefined when REST must tell. */
function fromPayload(event: BuildEvent, known: BuildUpdate | undefined): Change | undefined {
  if (event.kind === 'build') {
    const { build, commit } = event;
    if (!known) return undefined;
    // A payload without job ids keeps the ones known; other job ids than known need REST.
    const jobIds = build.job_ids.length > 0 ? build.job_ids : known.build.job_ids;
    if (!sameIds(known.build.job_ids, jobIds)) return undefined;
    return { build: { ...build, job_ids: jobIds }, commit: commit ?? known.commit, jobs: known.jobs };
  }
  if (event.kind === 'job') {
    const { job } = event;
    if (!known?.jobs.some((j) => j.id === job.id)) return undefined;
    return { ...known, jobs: known.jobs.map((j) => (j.id === job.id ? job : j)) };
  }
  return undefined;
}

async function resolve(
  ctx: RealtimeContext,
  wish: ChannelWish,
  buildId: number,
  repoId: number | undefined,
): Promise<Change> {
  const watching = repoId === undefined ? undefined : ctx.held(wish.deployment, repoId)?.session;
  const session = watching ?? (await ctx.sessions.open(wish.creator));
  ctx.count('realtime_resolve');
  const detail = await getBuild(session, buildId);
  return { build: detail.build, commit: detail.commit, jobs: detail.jobs };
}

function sameIds(a: readonly number[], b: readonly number[]): boolean {
  return a.length === b.length && a.every((id, index) => id === b[index]);
}

/** `repo-891` (or `private-repo-891`) names its repository. */
function repoOfChannel(channel: string): number | undefined {
  const match = /^(?:private-)?repo-(\d+)$/.exec(channel);
  return match ? Number(match[1]) : undefined;
}
