import { RepositoryMovedError } from '../../ops/describe-error.js';
import { movedRefOf, movedTo } from '../../ops/moved-repos.js';
import type { BuildOrJobRef, RepoRef } from '../../ops/references.js';
import { describeRepoRef } from '../../ops/resolve.js';
import { reportFailure } from '../interaction.js';
import type { CommandContext } from './context.js';
import type { ParsedCommand } from './index.js';

/**
 * The old deployment keeps migrated repositories read-only: restart, cancel, enable, disable, env
 * changes, settings, cache deletion and key changes of such a repository are refused at once, with
 * the offer to run the command on the new deployment. A repository named only through a build or
 * job id is checked once the build is found (build-flows.ts); one the app does not know moved is
 * refused by the service, which the app then remembers (moved.ts).
 */

/** The repository a command changes, when it names one. */
export function repoChangedBy(command: ParsedCommand): RepoRef | undefined {
  switch (command.name) {
    case 'restart':
    case 'cancel':
      return repoOfTarget(command.target);
    case 'enable':
    case 'disable':
    case 'settings':
      return command.repo;
    case 'env':
      return command.sub === 'list' ? undefined : command.repo;
    case 'caches':
      return command.sub === 'delete' ? command.repo : undefined;
    case 'pubkey':
      return command.regenerate ? command.repo : undefined;
    case 'sshkey':
      return command.sub === 'show' ? undefined : command.repo;
    default:
      return undefined;
  }
}

function repoOfTarget(target: BuildOrJobRef): RepoRef | undefined {
  return target.ref.kind === 'id' ? undefined : target.ref.repo;
}

/** Tells the user, before any CI request, when the repository is known to have moved; true then. */
export async function refusedAsMoved(ctx: CommandContext, repo: RepoRef): Promise<boolean> {
  if (!(await movedTo(ctx.services, ctx.deployment, movedRefOf(repo)))) return false;
  const subject = describeRepoRef(repo);
  await reportFailure(ctx, new RepositoryMovedError(subject), {
    deployment: ctx.deployment,
    action: `change ${subject}`,
    subject,
  });
  return true;
}
