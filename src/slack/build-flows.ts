import type { Deployment } from '../config.js';
import { openSession } from '../ops/actor.js';
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
import type { BuildOrJobRef, BuildRef, JobRef, RepoRef } from '../ops/references.js';
import {
  describeBuildRef,
  describeJobRef,
  describeRepoRef,
  resolveBuild,
  resolveJob,
} from '../ops/resolve.js';
import type { Services } from '../services.js';
import { guarded, type Interaction } from './interaction.js';
import { buildDetailMessage } from './views/build-card.js';
import type { Site } from './views/build-format.js';
import { buildListMessage, controlAnnouncement, controlConfirmation, statusMessage } from './views/builds.js';
import { jobListMessage } from './views/jobs.js';
import { logMessage } from './views/log.js';

/**
 * The builds and jobs use cases as Slack runs them, shared by the slash commands and the buttons:
 * open the acting user's own session (NotLinkedError becomes "link your account" upstream, before
 * any CI request), run the use case under an error context that names what was asked for, render
 * and reply. Lookups answer privately; restart and cancel are announced in the channel.
 */

export function siteOf(services: Services, deployment: Deployment): Site {
  return { deployment, label: services.label(deployment), webUrl: services.ci.deployment(deployment).webUrl };
}

export async function showStatus(ix: Interaction, deployment: Deployment, repo: RepoRef): Promise<void> {
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  const subject = describeRepoRef(repo);
  await guarded(
    ix,
    { deployment, action: `see the status of ${subject}`, subject, login: account.ciLogin },
    async () => {
      const status = await repoStatus(session, repo);
      await ix.reply.privately(statusMessage(status, siteOf(ix.services, deployment), ix.services.clock()));
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
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  const subject = describeRepoRef(request.repo);
  await guarded(
    ix,
    { deployment, action: `list the builds of ${subject}`, subject, login: account.ciLogin },
    async () => {
      const page = await listBuildPage(session, request.repo, request.filters, request.afterNumber);
      const message = buildListMessage(page, siteOf(ix.services, deployment), ix.services.clock());
      await ix.reply.privately(message, { replaceOriginal: request.replace ?? false });
    },
  );
}

export async function showBuild(ix: Interaction, deployment: Deployment, ref: BuildRef): Promise<void> {
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  const subject = describeBuildRef(ref);
  await guarded(ix, { deployment, action: `see ${subject}`, subject, login: account.ciLogin }, async () => {
    const { build, commit, jobs, repo } = await resolveBuild(session, ref);
    const site = siteOf(ix.services, deployment);
    await ix.reply.privately(
      buildDetailMessage({ site, slug: repo.slug, build, commit, jobs, now: ix.services.clock() }),
    );
  });
}

export async function showJobs(ix: Interaction, deployment: Deployment, filter: JobFilter): Promise<void> {
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  await guarded(ix, { deployment, action: 'list jobs', login: account.ciLogin }, async () => {
    const list = await findJobs(session, filter);
    await ix.reply.privately(jobListMessage(list, siteOf(ix.services, deployment), ix.services.clock()));
  });
}

export async function showLog(
  ix: Interaction,
  deployment: Deployment,
  ref: JobRef,
  lines: number,
): Promise<void> {
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  const login = account.ciLogin;
  const subject = describeJobRef(ref);
  await guarded(ix, { deployment, action: `read the log of ${subject}`, subject, login }, async () => {
    const { job, repo } = await resolveJob(session, ref);
    const logSubject = `the log of job #${job.number} of ${repo.slug}`;
    await guarded(ix, { deployment, action: `read ${logSubject}`, subject: logSubject, login }, async () => {
      const tail = await tailJobLog(session, job.id, lines);
      await ix.reply.privately(
        logMessage({ site: siteOf(ix.services, deployment), slug: repo.slug, job, tail }),
      );
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
  const { session, account } = await openSession(ix.services, ix.actor, deployment);
  const login = account.ciLogin;
  const asked = describeBuildOrJobRef(ref);
  // Finding the target changes nothing: a timeout there is not an unknown outcome.
  await guarded(ix, { deployment, action: `${verb} ${asked}`, subject: asked, login }, async () => {
    const target = await resolveTarget(session, ref);
    const name = describeTarget(target);
    await guarded(
      ix,
      { deployment, action: `${verb} ${name}`, subject: name, login, isChange: true },
      async () => {
        await controlTarget(session, verb, target);
        const site = siteOf(ix.services, deployment);
        if (options.quiet || !ix.channelId) {
          await ix.reply.privately(controlConfirmation(verb, target, site));
        } else {
          await ix.reply.publicly(controlAnnouncement(ix.actor.userId, verb, target, site));
        }
      },
    );
  });
}
