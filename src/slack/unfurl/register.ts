import type { App, types, webApi } from '@slack/bolt';
import type { CiSession } from '../../ci/client.js';
import type { Deployment } from '../../config.js';
import type { Actor } from '../../ops/actor.js';
import { NotLinkedError } from '../../ops/describe-error.js';
import { movedTo } from '../../ops/moved-repos.js';
import type { BuildOrJobRef } from '../../ops/references.js';
import { resolveBuild, resolveJob } from '../../ops/resolve.js';
import type { Services } from '../../services.js';
import { openActing } from '../acting.js';
import { siteOf } from '../deployments.js';
import { parseBuildOrJobRef } from '../refs.js';
import type { Block } from '../reply.js';
import { buildCardBlocks } from '../views/build-card.js';
import { jobCardBlocks } from '../views/job-card.js';
import type { Site } from '../views/site.js';
import { unfurlLinkOffer } from '../views/unfurl.js';

/**
 * Link previews: a build or job link of a configured deployment, pasted in a channel, becomes a
 * build card (or job card) fetched with the token of the person who shared it. Someone without a
 * linked account gets a private offer to link, and the channel sees nothing. Links of other hosts,
 * and links that are not builds or jobs, are left alone.
 */

/** Previews made per message at most (Slack sends up to 5 links per event anyway). */
const MAX_PREVIEWS = 5;
/** A preview stays short: a few jobs, failed first. */
const PREVIEW_JOBS = 5;
const PREVIEW_TEXT = 4_000;

type LinkSharedEvent = types.LinkSharedEvent;

export function registerUnfurls(app: App, services: Services): void {
  app.event('link_shared', async ({ event, body, client }) => {
    services.metrics.countSlackRequest('event', 'link_shared');
    await unfurlLinks(services, client, { teamId: body.team_id, userId: event.user }, event);
  });
}

interface Link {
  url: string;
  deployment: Deployment;
  ref: BuildOrJobRef;
}

function readLinks(services: Services, event: LinkSharedEvent): Link[] {
  const webUrls = Object.fromEntries(services.ci.deployments.map((d) => [d.name, d.webUrl]));
  const links: Link[] = [];
  for (const url of new Set(event.links.map((l) => l.url))) {
    const ref = parseBuildOrJobRef(url, webUrls);
    // Only a pasted link gives a `url` reference; ids or `owner/name#1` never come from a link.
    if (ref?.ref.kind === 'url') links.push({ url, deployment: ref.ref.deployment, ref });
    if (links.length === MAX_PREVIEWS) break;
  }
  return links;
}

/** Never throws: a preview is best effort, and failures are logged. */
async function unfurlLinks(
  services: Services,
  client: webApi.WebClient,
  sharer: Actor,
  event: LinkSharedEvent,
): Promise<void> {
  const links = readLinks(services, event);
  if (links.length === 0) return;
  const unfurls: Record<string, { blocks: Block[] }> = {};
  const notLinked = new Set<Deployment>();
  await Promise.all(
    links.map(async (link) => {
      try {
        const { session, site } = await openActing(services, sharer, link.deployment);
        unfurls[link.url] = { blocks: await preview(session, site, link.ref, services) };
      } catch (error) {
        if (error instanceof NotLinkedError) notLinked.add(link.deployment);
        else services.logger.info({ err: error, url: link.url }, 'no preview for a shared CI link');
      }
    }),
  );
  if (Object.keys(unfurls).length > 0) {
    await client.chat.unfurl({ ...unfurlTarget(event), unfurls }).catch((error: unknown) => {
      services.logger.warn({ err: error }, 'chat.unfurl failed');
    });
  }
  for (const deployment of notLinked) {
    await client.chat
      .postEphemeral({
        channel: event.channel,
        user: sharer.userId,
        ...unfurlLinkOffer(siteOf(services, deployment)),
      })
      .catch((error: unknown) => {
        services.logger.warn({ err: error }, 'could not offer to link an account for a preview');
      });
  }
}

/** A link typed in the message composer is previewed before the message exists: by its unfurl_id. */
function unfurlTarget(
  event: LinkSharedEvent,
): { source: 'composer' | 'conversations_history'; unfurl_id: string } | { channel: string; ts: string } {
  if ((event.source === 'composer' || event.source === 'conversations_history') && event.unfurl_id) {
    return { source: event.source, unfurl_id: event.unfurl_id };
  }
  return { channel: event.channel, ts: event.message_ts };
}

async function preview(
  session: CiSession,
  site: Site,
  ref: BuildOrJobRef,
  services: Services,
): Promise<Block[]> {
  const now = services.clock();
  if (ref.type === 'build') {
    const { build, commit, jobs, repo } = await resolveBuild(session, ref.ref);
    const moved = await movedTo(services, site.deployment, repo);
    return buildCardBlocks(
      { site, slug: repo.slug, build, commit, jobs, now, movedTo: moved && services.label(moved) },
      { maxJobs: PREVIEW_JOBS, maxText: PREVIEW_TEXT },
    );
  }
  const { job, commit, repo } = await resolveJob(session, ref.ref);
  const moved = await movedTo(services, site.deployment, repo);
  return jobCardBlocks({ site, slug: repo.slug, job, commit, now, movedTo: moved && services.label(moved) });
}
