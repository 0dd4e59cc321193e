import type { Deployment } from '../config.js';
import {
  type ControlVerb,
  controlTarget,
  describeBuildOrJobRef,
  describeTarget,
  resolveTarget,
} from '../ops/build-control.js';
import { type BuildFilters, listBuildPage, repoStatus } from '../ops/builds.js';
import { findJobs, type JobFilter } from '../ops/jobs.js';
import { tailJobLog } from '../ops/logs.js';
import { movedTo, refuseIfMoved } from '../ops/moved-repos.js';
import type { BuildOrJobRef, BuildRef, JobRef, RepoRef } from '../ops/references.js';
import {
  describeBuildRef,
  describeJobRef,
  describeRepoRef,
  resolveBuild,
  resolveJob,
} from '../ops/resolve.js';
import { actAs, announceChange } from './acting.js';
import { guarded, type Interaction } from './interaction.js';
import { buildDetailMessage } from './views/build-card.js';
import { buildListMessage, controlAnnouncement, controlConfirmation, statusMessage } from './views/builds.js';
import { jobListMessage } from './views/jobs.js';
import { logMessage } from './views/log.js';

/**
 * The builds and jobs use cases as Slack runs them, shared by the slash commands and the buttons:
 * each runs as the acting user (`actAs`), renders and replies. Lookups answer privately; restart
 * and cancel are announced in the channel.
 */

export async function showStatus(ix: Interaction, deployment: Deployment, repo: RepoRef): Promise<void> {
  const subject = describeRepoRef(repo);
  await actAs(
    ix,
    { deployment, action: `see the status of ${subject}`, subject },
    async ({ session, site }) => {
      const status = await repoStatus(session, repo);
      await ix.reply.privately(statusMessage(status, site, ix.services.clock()));
    },
  );
}

export interface BuildListRequest {
  repo: RepoRef;
  filters: BuildFilters;
  afterNumber?: string | undefined;
  /** Replace the message the button sat in (paging) instead of answering anew. */
  replace?: boolean;
}

export async function showBuilds(
  ix: Interaction,
  deployment: Deployment,
  request: BuildListRequest,
): Promise<void> {
  const subject = describeRepoRef(request.repo);
  await actAs(
    ix,
    { deployment, action: `list the builds of ${subject}`, subject },
    async ({ session, site }) => {
      const page = await listBuildPage(session, request.repo, request.filters, request.afterNumber);
      const message = buildListMessage(page, site, ix.services.clock());
      await ix.reply.privately(message, { replaceOriginal: request.replace ?? false });
    },
  );
}

export async function showBuild(ix: Interaction, deployment: Deployment, ref: BuildRef): Promise<void> {
  const subject = describeBuildRef(ref);
  await actAs(ix, { deployment, action: `see ${subject}`, subject }, async ({ session, site }) => {
    const { build, commit, jobs, repo } = await resolveBuild(session, ref);
    const moved = await movedTo(ix.services, deployment, repo);
    const movedLabel = moved && ix.services.label(moved);
    const now = ix.services.clock();
    await ix.reply.privately(
      buildDetailMessage({ site, slug: repo.slug, build, commit, jobs, now, movedTo: movedLabel }),
    );
  });
}

export async function showJobs(ix: Interaction, deployment: Deployment, filter: JobFilter): Promise<void> {
  await actAs(ix, { deployment, action: 'list jobs' }, async ({ session, site }) => {
    const list = await findJobs(session, filter);
    await ix.reply.privately(jobListMessage(list, site, ix.services.clock()));
  });
}

export async function showLog(
  ix: Interaction,
  deployment: Deployment,
  ref: JobRef,
  lines: number,
): Promise<void> {
  const subject = describeJobRef(ref);
  const about = { deployment, action: `read the log of ${subject}`, subject };
  await actAs(ix, about, async ({ session, login, site }) => {
    const { job, repo } = await resolveJob(session, ref);
    const logSubject = `the log of job #${job.number} of ${repo.slug}`;
    await guarded(ix, { deployment, action: `read ${logSubject}`, subject: logSubject, login }, async () => {
      const tail = await tailJobLog(session, job.id, lines);
      await ix.reply.privately(logMessage({ site, slug: repo.slug, job, tail }));
    });
  });
}

/**
 * Restart or cancel, then say so: in the channel ("@user restarted build #123 of owner/name")
 * unless `quiet`, otherwise (or where there is no channel, as in App Home) privately.
 */
export async function control(
  ix: Interaction,
  deployment: Deployment,
  verb: ControlVerb,
  ref: BuildOrJobRef,
  options: { quiet?: boolean } = {},
): Promise<void> {
  const asked = describeBuildOrJobRef(ref);
  // Finding the target changes nothing: a timeout there is not an unknown outcome.
  await actAs(
    ix,
    { deployment, action: `${verb} ${asked}`, subject: asked },
    async ({ session, login, site }) => {
      const target = await resolveTarget(session, ref);
      await refuseIfMoved(ix.services, deployment, target.repo);
      const name = describeTarget(target);
      const change = { deployment, action: `${verb} ${name}`, subject: name, login, isChange: true };
      await guarded(ix, change, async () => {
        await controlTarget(session, verb, target);
        await announceChange(ix, options.quiet ?? false, {
          announcement: controlAnnouncement(ix.actor.userId, verb, target, site),
          confirmation: controlConfirmation(verb, target, site),
        });
      });
    },
  );
}
