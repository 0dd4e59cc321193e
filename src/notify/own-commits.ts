/**
 * "Builds of your own commits" (`/ci notify me on`): which linked person authored a commit.
 * Commits carry names and e-mail addresses, not CI logins, so the author is matched by:
 * - the e-mail of the person's CI profile (ignoring case);
 * - their login in a GitHub no-reply address (`12345+login@users.noreply.github.com`);
 * - their login written as the author name (ignoring case), as bots and many people do.
 * Display names are not matched (two people may share one), nor committers (whoever rebased or
 * merged a commit did not write it).
 */

export interface CommitAuthor {
  authorName?: string | null;
  authorEmail?: string | null;
}

/** Who a person is on one deployment, as saved when they turned notifications on. */
export interface CommitIdentity {
  ciLogin: string;
  email?: string;
}

const LOGIN = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
const NO_REPLY = /^(?:\d+\+)?([^@+]+)@users\.noreply\.github\.com$/i;

/** CI logins (lower-cased) the author fields name directly, for `LinkedAccounts.findByCiLogin`. */
export function commitLogins(commit: CommitAuthor): string[] {
  const logins = new Set<string>();
  const fromEmail = commit.authorEmail ? NO_REPLY.exec(commit.authorEmail.trim())?.[1] : undefined;
  if (fromEmail && LOGIN.test(fromEmail)) logins.add(fromEmail.toLowerCase());
  const name = commit.authorName?.trim();
  if (name && LOGIN.test(name)) logins.add(name.toLowerCase());
  return [...logins];
}

export function isOwnCommit(identity: CommitIdentity, commit: CommitAuthor): boolean {
  const email = identity.email?.trim().toLowerCase();
  if (email && commit.authorEmail?.trim().toLowerCase() === email) return true;
  return commitLogins(commit).includes(identity.ciLogin.toLowerCase());
}
