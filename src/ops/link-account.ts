import { exchangeGithubToken, getCurrentUser } from '../ci/auth.js';
import { CiError } from '../ci/errors.js';
import type { Deployment } from '../config.js';
import type { Services } from '../services.js';
import type { LinkedAccount } from '../store/linked-accounts.js';
import type { Actor } from './actor.js';

export type TokenInput = { ciToken: string } | { githubToken: string };

/** Why a pasted token could not be linked, phrased for the field it was pasted into. */
export class TokenRejectedError extends Error {
  override readonly name = 'TokenRejectedError';
  readonly code = 'token_rejected';
  constructor(
    message: string,
    readonly field: 'ciToken' | 'githubToken',
  ) {
    super(message);
  }
}

/**
 * Links a CI account: a GitHub token is exchanged once for a CI token (and forgotten); the CI token
 * is checked with GET /users before it is stored, encrypted, beside the login it belongs to.
 */
export async function linkAccount(
  services: Services,
  actor: Actor,
  deployment: Deployment,
  input: TokenInput,
): Promise<LinkedAccount> {
  const label = services.label(deployment);
  let token: string;
  if ('githubToken' in input) {
    try {
      token = await exchangeGithubToken(services.ci.session(deployment), input.githubToken.trim());
    } catch (error) {
      throw refusal(
        error,
        `${label} did not accept that GitHub token. It needs the scopes read:org, user:email, repo_deployment, repo:status and write:repo_hook.`,
        'githubToken',
      );
    }
  } else {
    token = input.ciToken.trim();
  }
  let user: Awaited<ReturnType<typeof getCurrentUser>>;
  try {
    user = await getCurrentUser(services.ci.session(deployment, token));
  } catch (error) {
    throw refusal(
      error,
      `${label} did not accept that token. Copy it again from your ${label} profile (Settings → API authentication).`,
      'githubToken' in input ? 'githubToken' : 'ciToken',
    );
  }
  return services.accounts.link({
    teamId: actor.teamId,
    userId: actor.userId,
    deployment,
    ciLogin: user.login,
    ciUserId: user.id,
    token,
  });
}

/** A refused token is the user's to fix; anything else (service down, ...) is passed on as is. */
function refusal(error: unknown, message: string, field: 'ciToken' | 'githubToken'): unknown {
  if (
    error instanceof CiError &&
    ['unauthenticated', 'not_found', 'insufficient_access', 'rejected'].includes(error.code)
  ) {
    return new TokenRejectedError(message, field);
  }
  return error;
}
