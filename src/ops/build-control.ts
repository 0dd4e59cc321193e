import { cancelBuild, restartBuild } from '../ci/builds.js';
import type { CiSession } from '../ci/client.js';
import { isCiError } from '../ci/errors.js';
import { cancelJob, restartJob } from '../ci/jobs.js';
import type { Repository } from '../ci/schemas.js';
import { UserFacingError } from './describe-error.js';
import type { BuildOrJobRef } from './references.js';
import { describeBuildRef, describeJobRef, resolveBuild, resolveJob } from './resolve.js';

/**
 * Restart and cancel of a build or one job, as the acting user. The target is resolved first, so
 * messages can name it ("build #123 of owner/name") and link it; the service's refusals for the
 * wrong state become plain sentences.
 */

export interface ControlTarget {
  type: 'build' | 'job';
  id: number;
  /** `123` for a build, `123.2` for a job. */
  number: string;
  state: string;
  repo: Repository;
  /** The build a job belongs to (the build itself for a build). */
  buildId: number;
}

export type ControlVerb = 'restart' | 'cancel';

/** "build #123 of owner/name", "job #123.2 of owner/name". */
export function describeTarget(target: Pick<ControlTarget, 'type' | 'number' | 'repo'>): string {
  return `${target.type} #${target.number} of ${target.repo.slug}`;
}

/** How a reference reads before it is resolved (for messages about failing to find it). */
export function describeBuildOrJobRef(ref: BuildOrJobRef): string {
  return ref.type === 'build' ? describeBuildRef(ref.ref) : describeJobRef(ref.ref);
}

export async function resolveTarget(ci: CiSession, ref: BuildOrJobRef): Promise<ControlTarget> {
  if (ref.type === 'build') {
    const { build, repo } = await resolveBuild(ci, ref.ref);
    return { type: 'build', id: build.id, number: build.number, state: build.state, repo, buildId: build.id };
  }
  const { job, repo } = await resolveJob(ci, ref.ref);
  return { type: 'job', id: job.id, number: job.number, state: job.state, repo, buildId: job.build_id };
}

/**
 * Restarts or cancels the target. The service refuses to cancel what finished (422 `cant_cancel`)
 * and to restart what still runs (400): both become a UserFacingError that says so.
 */
export async function controlTarget(ci: CiSession, verb: ControlVerb, target: ControlTarget): Promise<void> {
  try {
    await send(ci, verb, target);
  } catch (error) {
    throw refusalFor(error, verb, target) ?? error;
  }
}

function send(ci: CiSession, verb: ControlVerb, target: ControlTarget): Promise<void> {
  if (target.type === 'build') {
    return verb === 'restart' ? restartBuild(ci, target.id) : cancelBuild(ci, target.id);
  }
  return verb === 'restart' ? restartJob(ci, target.id) : cancelJob(ci, target.id);
}

function refusalFor(error: unknown, verb: ControlVerb, target: ControlTarget): UserFacingError | undefined {
  if (!isCiError(error, 'rejected')) return undefined;
  const name = capitalise(describeTarget(target));
  if (verb === 'cancel' && error.status === 422) {
    return new UserFacingError(`${name} already finished; nothing to cancel.`);
  }
  if (verb === 'restart' && error.status === 400) {
    return new UserFacingError(
      `${name} is still running; it can be restarted once it has finished (or cancel it first).`,
    );
  }
  return undefined;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
