import type { Account, Broadcast, Repository, User } from '../../ci/schemas.js';
import { profileWebUrl } from '../../ci/web-links.js';
import type { AccessLevel, PermissionsSummary, RepoSearch } from '../../ops/accounts.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, link, singleLine } from '../text/escape.js';
import { fitList } from '../text/fit-list.js';
import { formatNumber, plural, timeAgo } from '../text/format.js';
import { truncate } from '../text/truncate.js';
import { section } from './blocks.js';
import { listBlocks } from './lists.js';
import { repoLink, type Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

/** Account views: accounts, repositories, permissions, broadcasts and sync. */

/** Items shown in one list, and their text in all (Slack refuses more than ~12,000 characters). */
const MAX_ITEMS = 50;
const MAX_LIST_CHARS = 9000;
const MAX_DESCRIPTION = 100;

type Noun = readonly [one: string, many: string];
const ACCOUNTS: Noun = ['account', 'accounts'];
const REPOSITORIES: Noun = ['repository', 'repositories'];
const ANNOUNCEMENTS: Noun = ['announcement', 'announcements'];

/** A title, the items that fit, and "showing N of M" (or how many there are) underneath. */
function titledList<T>(
  title: string,
  items: readonly T[],
  render: (item: T) => string,
  [one, many]: Noun,
): Block[] {
  const whole = plural(items.length, one, many);
  return [
    section(title),
    ...listBlocks(items, render, { maxItems: MAX_ITEMS, maxChars: MAX_LIST_CHARS, noun: many, whole }),
  ];
}

export interface AccountsInput {
  accounts: Account[];
  all: boolean;
  site: Site;
}

export function accountsMessage(input: AccountsInput): SlackMessage {
  const where = escapeMrkdwn(input.site.label);
  if (input.accounts.length === 0) {
    const hint = input.all
      ? ''
      : ' Try `/ci accounts --all` to include organizations you are not an admin of.';
    return {
      text: `No accounts on ${input.site.label}.`,
      blocks: [section(`No accounts on ${where}.${hint}`)],
    };
  }
  const title = input.all ? `*All your accounts on ${where}*` : `*Accounts you administer on ${where}*`;
  return {
    text: `${plural(input.accounts.length, 'account')} on ${input.site.label}`,
    blocks: titledList(title, input.accounts, (account) => accountLine(account, input.site), ACCOUNTS),
  };
}

function accountLine(account: Account, site: Site): string {
  const name =
    account.name && account.name !== account.login ? ` (${escapeMrkdwn(singleLine(account.name))})` : '';
  const repos =
    typeof account.repos_count === 'number'
      ? ` · ${plural(account.repos_count, 'repository', 'repositories')}`
      : '';
  const subscribed = account.subscribed ? ' · subscribed' : '';
  return `• ${link(profileWebUrl(site.webUrl, account.login), account.login)}${name} · ${escapeMrkdwn(account.type)}${repos}${subscribed}`;
}

export interface ReposInput {
  repos: Repository[];
  search: RepoSearch;
  login: string;
  site: Site;
  now: Date;
}

function describeSearch(search: RepoSearch, login: string): string {
  const parts: string[] = [];
  if (search.owner !== undefined) parts.push(`owned by ${inlineCode(search.owner)}`);
  if (search.member !== undefined || search.owner === undefined) {
    parts.push(`with ${inlineCode(search.member ?? login)} as a member`);
  }
  if (search.term !== undefined) parts.push(`matching ${inlineCode(search.term)}`);
  if (search.active) parts.push('with builds enabled');
  return parts.join(', ');
}

function repoLine(repo: Repository, site: Site, now: Date): string {
  const last =
    repo.last_build_number !== undefined
      ? ` · ${stateEmoji(repo.last_build_state)} #${escapeMrkdwn(repo.last_build_number)} ${escapeMrkdwn(stateWord(repo.last_build_state))}`
      : '';
  const when = repo.last_build_finished_at ? ` ${timeAgo(repo.last_build_finished_at, now)}` : '';
  const inactive = repo.active === false ? ' · _not enabled_' : '';
  const description = repo.description
    ? ` — ${escapeMrkdwn(truncate(singleLine(repo.description), MAX_DESCRIPTION))}`
    : '';
  return `• ${repoLink(site, repo.slug)}${last}${when}${inactive}${description}`;
}

export function reposMessage(input: ReposInput): SlackMessage {
  const which = describeSearch(input.search, input.login);
  if (input.repos.length === 0) {
    return { text: 'No repositories found.', blocks: [section(`No repositories ${which}.`)] };
  }
  return {
    text: `${plural(input.repos.length, 'repository', 'repositories')} found`,
    blocks: titledList(
      `*Repositories ${which}*`,
      input.repos,
      (repo) => repoLine(repo, input.site, input.now),
      REPOSITORIES,
    ),
  };
}

const LEVELS: ReadonlyArray<{ level: AccessLevel; title: string }> = [
  { level: 'admin', title: 'Administer' },
  { level: 'push', title: 'Push (build and change)' },
  { level: 'pull', title: 'Read' },
];
/** Per level, the names shown: the three levels must share one message. */
const MAX_LEVEL_CHARS = 2500;

export function permissionsMessage(summary: PermissionsSummary, site: Site): SlackMessage {
  const blocks: Block[] = [section(`*Your repository permissions on ${escapeMrkdwn(site.label)}*`)];
  for (const { level, title } of LEVELS) {
    const ids = summary.ids[level];
    if (ids.length === 0) {
      blocks.push(section(`*${title}*: none`));
      continue;
    }
    const fitted = fitList(
      ids,
      (id) => {
        const slug = summary.slugs.get(id);
        return slug ? repoLink(site, slug) : `repository ${id}`;
      },
      { maxItems: MAX_ITEMS, maxChars: MAX_LEVEL_CHARS, separator: ', ' },
    );
    const note = fitted.note ? ` _(${fitted.note})_` : '';
    blocks.push(section(`*${title}* (${formatNumber(ids.length)}): ${fitted.shown.join(', ')}${note}`));
  }
  return { text: `Your repository permissions on ${site.label}`, blocks };
}

export function broadcastsMessage(broadcasts: Broadcast[], site: Site): SlackMessage {
  const { label } = site;
  if (broadcasts.length === 0) {
    return {
      text: `No announcements from ${label}.`,
      blocks: [section(`No announcements from ${escapeMrkdwn(label)}.`)],
    };
  }
  return {
    text: `${plural(broadcasts.length, 'announcement')} from ${label}`,
    blocks: titledList(
      `*Announcements from ${escapeMrkdwn(label)}*`,
      broadcasts,
      (b) => `• ${escapeMrkdwn(truncate(singleLine(b.message), 500))}`,
      ANNOUNCEMENTS,
    ),
  };
}

export function syncStartedMessage(site: Site): SlackMessage {
  const text = `Sync started: ${site.label} is refreshing your repositories and permissions from GitHub. I will tell you when it has finished.`;
  return { text, blocks: [section(escapeMrkdwn(text))] };
}

export function syncFinishedMessage(user: User, site: Site, now: Date): SlackMessage {
  const when = user.synced_at ? ` (${timeAgo(user.synced_at, now)})` : '';
  const text = `Sync finished${when}: your repositories and permissions on ${site.label} are up to date.`;
  return { text, blocks: [section(escapeMrkdwn(text))] };
}

export function syncStillRunningMessage(site: Site): SlackMessage {
  const text = `The sync on ${site.label} is still running. Check again later with /ci whoami.`;
  return { text, blocks: [section(escapeMrkdwn(text))] };
}
