import type { CiSession } from '../ci/client.js';
import { listRepos } from '../ci/repos.js';
import type { Repository } from '../ci/schemas.js';
import { compareText } from '../compare-text.js';
import type { Deployment } from '../config.js';
import type { Services } from '../services.js';
import {
  type MigrationBatch,
  MigrationBatches,
  type MigrationDraft,
  type PlannedRepo,
} from '../store/migration-batches.js';
import { type Actor, openSession } from './actor.js';
import { UserFacingError } from './describe-error.js';
import { movedTo, newDeploymentOf } from './moved-repos.js';
import type { RepoTarget } from './references.js';
import { repoKey } from './resolve.js';

/**
 * `/ci migrate`: plan a batch (what the confirmation lists), then start it when someone confirms.
 * The batch itself is driven in the background (src/migration), which sends each request with the
 * confirming user's own token on the new deployment.
 */

/** At most this many repositories move in one batch. */
export const MAX_BATCH = 50;

export interface MigrationRoute {
  from: Deployment;
  to: Deployment;
}

/** From the wound-down open-source deployment to the hosted one; both must be configured. */
export function migrationRoute(services: Services): MigrationRoute {
  const from: Deployment = 'org';
  const to = services.config.ci.deployments[from] ? newDeploymentOf(services, from) : undefined;
  if (to === undefined) {
    throw new UserFacingError(
      'Migration moves repositories from the open-source deployment (travis-ci.org) to the hosted one (travis-ci.com), and this app does not have both configured. Ask whoever runs it.',
    );
  }
  return { from, to };
}

export interface MigrationPlan {
  draftId: string;
  route: MigrationRoute;
  repos: PlannedRepo[];
  /** Repositories of `owner/*` left out because they are known to have moved already. */
  alreadyMoved: number;
  /** Repositories beyond one batch, for the next run of the same command. */
  left: number;
}

/**
 * What a batch would move, kept as a draft until someone confirms. Named repositories are taken as
 * written (a numeric id is the repository's id on the new deployment, where the request goes);
 * `owner/*` lists that owner's repositories on the old deployment with the user's own token there,
 * leaving out the ones known to have moved already.
 */
export async function planMigration(
  services: Services,
  actor: Actor,
  request: { channelId: string | undefined; targets: RepoTarget[] },
): Promise<MigrationPlan> {
  const route = migrationRoute(services);
  const planned = new PlannedList();
  let alreadyMoved = 0;
  let oldSession: CiSession | undefined;
  for (const target of request.targets) {
    if (target.kind === 'repo') {
      planned.add({ ref: repoKey(target.repo) });
      continue;
    }
    oldSession ??= (await openSession(services, actor, route.from)).session;
    const listed = await ownerRepos(oldSession, target.owner);
    if (listed.length === 0) {
      throw new UserFacingError(
        `I found no repositories of ${target.owner} on ${services.label(route.from)} that your account can see.`,
      );
    }
    for (const repo of listed) {
      if (await movedTo(services, route.from, { slug: repo.slug, id: repo.id })) alreadyMoved += 1;
      else planned.add({ ref: repo.slug, oldId: repo.id });
    }
  }
  if (planned.items.length === 0) {
    throw new UserFacingError(
      `Every repository you named has moved to ${services.label(route.to)} already; there is nothing left to migrate.`,
    );
  }
  const repos = planned.items.slice(0, MAX_BATCH);
  const draft: MigrationDraft = {
    v: 1,
    id: MigrationBatches.newId(),
    teamId: actor.teamId,
    userId: actor.userId,
    ...(request.channelId ? { channelId: request.channelId } : {}),
    ...route,
    repos,
    createdAt: services.clock().toISOString(),
  };
  await new MigrationBatches(services.kv).saveDraft(draft);
  return { draftId: draft.id, route, repos, alreadyMoved, left: planned.items.length - repos.length };
}

/**
 * Starts the batch of a confirmed draft, as the person who confirmed. Their account on the new
 * deployment is checked first (NotLinkedError: nothing is sent, and the draft stays for another
 * click once they linked it); a draft that expired or was confirmed already is refused.
 */
export async function confirmMigration(
  services: Services,
  actor: Actor,
  request: { draftId: string; to: Deployment },
): Promise<MigrationBatch> {
  await openSession(services, actor, request.to);
  const batches = new MigrationBatches(services.kv);
  const draft = await batches.takeDraft(request.draftId);
  if (!draft || draft.teamId !== actor.teamId) {
    throw new UserFacingError(
      'This confirmation has expired or was used already. Run `/ci migrate` again for a fresh one.',
    );
  }
  const batch: MigrationBatch = {
    v: 1,
    id: MigrationBatches.newId(),
    teamId: draft.teamId,
    userId: actor.userId,
    ...(draft.channelId ? { channelId: draft.channelId } : {}),
    from: draft.from,
    to: draft.to,
    createdAt: services.clock().toISOString(),
    repos: draft.repos.map((repo) => ({
      ...repo,
      ...(typeof repo.ref === 'string' ? { slug: repo.ref } : {}),
      status: 'pending',
      requests: 0,
      checks: 0,
    })),
  };
  await batches.create(batch);
  return batch;
}

/** Forgets a draft (the confirmation's Cancel button). */
export async function cancelMigration(services: Services, draftId: string): Promise<void> {
  await new MigrationBatches(services.kv).dropDraft(draftId);
}

async function ownerRepos(session: CiSession, owner: string): Promise<Repository[]> {
  const wanted = owner.toLowerCase();
  const repos = await listRepos(session, { ownerName: owner });
  return repos
    .filter((repo) => repo.slug.split('/')[0]?.toLowerCase() === wanted)
    .sort((a, b) => compareText(a.slug, b.slug));
}

/** Planned repositories in order, each once (slugs compared without case). */
class PlannedList {
  readonly items: PlannedRepo[] = [];
  private readonly seen = new Set<string>();

  add(repo: PlannedRepo): void {
    const key = typeof repo.ref === 'number' ? `id:${repo.ref}` : `slug:${repo.ref.toLowerCase()}`;
    if (this.seen.has(key)) return;
    this.seen.add(key);
    this.items.push(repo);
  }
}
