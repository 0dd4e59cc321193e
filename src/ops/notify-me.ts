import { getCurrentUser } from '../ci/auth.js';
import type { Deployment } from '../config.js';
import { type CommitAuthor, commitLogins, isOwnCommit } from '../notify/own-commits.js';
import type { Services } from '../services.js';
import type { NotifyIdentity } from '../store/notify-prefs.js';
import { type Actor, openSession } from './actor.js';

/**
 * `/ci notify me on|off`: direct messages about builds of your own commits, wherever they are
 * subscribed. Turning it on needs a linked account on the command's deployment; the person's CI
 * profile (login, e-mail) on each linked deployment is saved to match commit authors.
 */

export interface NotifyMeResult {
  on: boolean;
  /** Whether it was on before this command. */
  wasOn: boolean;
  identities: NotifyIdentity[];
}

export async function setNotifyMe(
  services: Services,
  actor: Actor,
  deployment: Deployment,
  on: boolean,
): Promise<NotifyMeResult> {
  if (!on) {
    const wasOn = await services.notifyPrefs.set(actor.teamId, actor.userId, false);
    return { on, wasOn, identities: [] };
  }
  const { session } = await openSession(services, actor, deployment);
  const user = await getCurrentUser(session);
  const identities: NotifyIdentity[] = [identityOf(deployment, user.login, user.email)];
  const others = (await services.accounts.list(actor.teamId, actor.userId)).filter(
    (a) => a.deployment !== deployment && services.config.ci.deployments[a.deployment],
  );
  for (const other of others) {
    // The other deployments are best effort: without their profile, the login alone still matches.
    const profile = await openSession(services, actor, other.deployment)
      .then(({ session: s }) => getCurrentUser(s))
      .catch(() => undefined);
    identities.push(identityOf(other.deployment, profile?.login ?? other.ciLogin, profile?.email));
  }
  const wasOn = await services.notifyPrefs.set(actor.teamId, actor.userId, true, identities);
  return { on, wasOn, identities };
}

function identityOf(
  deployment: Deployment,
  ciLogin: string,
  email: string | null | undefined,
): NotifyIdentity {
  return email ? { deployment, ciLogin, email } : { deployment, ciLogin };
}

/**
 * The Slack users of a team to send a direct message about a build of this commit: those with
 * `notify me` on whose saved identity on the deployment authored it, or whose linked login the
 * commit names, and who are still linked to that login. For the notifier.
 */
export async function ownCommitRecipients(
  services: Services,
  teamId: string,
  deployment: Deployment,
  commit: CommitAuthor,
): Promise<string[]> {
  const prefs = await services.notifyPrefs.usersOn(teamId);
  if (prefs.length === 0) return [];
  const recipients = new Set<string>();
  for (const pref of prefs) {
    const identity = pref.identities.find((i) => i.deployment === deployment);
    if (!identity || !isOwnCommit(identity, commit)) continue;
    const account = await services.accounts.get(teamId, pref.userId, deployment);
    if (account && account.ciLogin.toLowerCase() === identity.ciLogin.toLowerCase()) {
      recipients.add(pref.userId);
    }
  }
  const on = new Set(prefs.map((p) => p.userId));
  for (const login of commitLogins(commit)) {
    for (const account of await services.accounts.findByCiLogin(teamId, deployment, login)) {
      if (on.has(account.userId)) recipients.add(account.userId);
    }
  }
  return [...recipients].sort();
}
