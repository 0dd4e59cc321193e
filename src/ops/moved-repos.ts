import type { Deployment } from '../config.js';
import type { Services } from '../services.js';
import { StoreUnavailableError } from '../store/kv.js';
import { type MovedHow, type MovedRepoRef, MovedRepos } from '../store/moved-repos.js';
import { RepositoryMovedError } from './describe-error.js';
import type { RepoRef } from './references.js';

/**
 * The old deployment keeps migrated repositories read-only. The app knows a repository moved
 * before asking the service when it migrated it itself (a batch remembers each repository that
 * ends migrated, or that the service says was migrated already), or when the service refused an
 * earlier change of it with `migrated_repository`. Anything else is learned from that refusal.
 */

/** The deployment repositories of `deployment` migrate to: `com` for the wound-down `org`, when configured. */
export function newDeploymentOf(
  services: Pick<Services, 'config'>,
  deployment: Deployment,
): Deployment | undefined {
  return deployment === 'org' && services.config.ci.deployments.com ? 'com' : undefined;
}

/** What a reference tells about a repository, for looking it up among the moved ones. */
export function movedRefOf(repo: RepoRef): MovedRepoRef {
  return repo.kind === 'slug' ? { slug: repo.slug } : { id: repo.id };
}

/**
 * Where the repository moved to, when it is known to have left `deployment`. Storage trouble
 * reads as "not known": the service still refuses the change itself.
 */
export async function movedTo(
  services: Services,
  deployment: Deployment,
  repo: MovedRepoRef,
): Promise<Deployment | undefined> {
  if (newDeploymentOf(services, deployment) === undefined) return undefined;
  try {
    return (await new MovedRepos(services.kv, services.clock).find(deployment, repo))?.to;
  } catch (error) {
    if (!(error instanceof StoreUnavailableError)) throw error;
    services.logger.warn({ err: error }, 'could not read whether a repository moved');
    return undefined;
  }
}

/** Throws RepositoryMovedError, before any request, for a change of a repository known to have moved. */
export async function refuseIfMoved(
  services: Services,
  deployment: Deployment,
  repo: { slug: string; id: number },
): Promise<void> {
  if (await movedTo(services, deployment, repo)) throw new RepositoryMovedError(repo.slug);
}

/** Remembers that a repository left `from`; a no-op where nothing migrates away. */
export async function rememberMoved(
  services: Services,
  from: Deployment,
  repo: MovedRepoRef,
  how: MovedHow,
): Promise<void> {
  const to = newDeploymentOf(services, from);
  if (to === undefined) return;
  await new MovedRepos(services.kv, services.clock).remember(from, repo, to, how);
}
