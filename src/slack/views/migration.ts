import { repoName } from '../../ops/migration-steps.js';
import type {
  BatchRepo,
  MigrationBatch,
  PlannedRepo,
  RepoMigrationStatus,
} from '../../store/migration-batches.js';
import { ACTIONS } from '../ids.js';
import type { SlackMessage } from '../reply.js';
import { escapeMrkdwn, mention } from '../text/escape.js';
import { formatDuration, formatNumber, plural } from '../text/format.js';
import { truncate } from '../text/truncate.js';
import { actions, button, context, header, section } from './blocks.js';
import { listBlocks } from './lists.js';
import { repoLink, type Site } from './site.js';

/**
 * `/ci migrate`: the private confirmation, the note that replaces it, and the one message per
 * batch that follows each repository to its end. Offers to move subscriptions are in
 * migration-offers.ts.
 */

const MAX_REPOS = 50;
/** Characters of the repository lines together, well inside a message's 12,000. */
const LIST_CHARS = 9_000;
const DETAIL_CHARS = 300;

const MOVES_WITH_THEM =
  'public and encrypted environment variables, SSH keys, settings, cron jobs, the last build status, the next build number and the build history';

export interface MigrationConfirmInput {
  draftId: string;
  from: Site;
  to: Site;
  repos: readonly PlannedRepo[];
  /** `owner/*` repositories left out because they moved already. */
  alreadyMoved: number;
  /** Repositories beyond this batch. */
  left: number;
}

/** "Move 3 repositories from travis-ci.org to travis-ci.com?", what moves and what does not, Confirm. */
export function migrationConfirmMessage(input: MigrationConfirmInput): SlackMessage {
  const { from, to, repos } = input;
  const count = plural(repos.length, 'repository', 'repositories');
  const question = `Move ${count} from ${from.label} to ${to.label}?`;
  const notes: string[] = [];
  if (input.alreadyMoved > 0) {
    notes.push(
      `${plural(input.alreadyMoved, 'repository', 'repositories')} of that owner moved already and are left out.`,
    );
  }
  if (input.left > 0) {
    notes.push(
      `${formatNumber(input.left)} more are left for the next batch (at most ${MAX_REPOS} at a time): run the same command again once this one finished.`,
    );
  }
  return {
    text: question,
    blocks: [
      section(`*${escapeMrkdwn(question)}*`),
      ...listBlocks(repos, (repo) => `• ${plannedName(repo, from, to)}`, {
        maxItems: MAX_REPOS,
        maxChars: LIST_CHARS,
        noun: 'repositories',
      }),
      section(`*Moves with them:* ${MOVES_WITH_THEM}.`),
      section(`*Does not move:* caches; the first build on ${escapeMrkdwn(to.label)} rebuilds them.`),
      context(
        `Afterwards ${escapeMrkdwn(from.label)} keeps them read-only. Each is migrated with the ${escapeMrkdwn(to.label)} account of whoever clicks Confirm.`,
        ...notes.map(escapeMrkdwn),
      ),
      ...actions([
        button(
          ACTIONS.confirmMigration,
          'Confirm',
          { d: to.deployment, id: input.draftId },
          { style: 'primary' },
        ),
        button(ACTIONS.cancelMigration, 'Cancel', { id: input.draftId }),
      ]),
    ],
  };
}

function plannedName(repo: PlannedRepo, from: Site, to: Site): string {
  if (typeof repo.ref === 'number') return `repository ${repo.ref} (its id on ${escapeMrkdwn(to.label)})`;
  return repoLink(from, repo.ref);
}

/** What replaces the confirmation once the batch started. */
export function migrationStartedMessage(count: number, to: Site): SlackMessage {
  const text = `Started moving ${plural(count, 'repository', 'repositories')} to ${to.label}. One message follows them: in this channel, or in a direct message from me where I cannot post here.`;
  return { text, blocks: [section(`:rocket: ${escapeMrkdwn(text)}`)] };
}

export const MIGRATION_CANCELED: SlackMessage = { text: 'Canceled: nothing was migrated.' };

export interface MigrationProgressInput {
  batch: MigrationBatch;
  from: Site;
  to: Site;
}

const STATUS_EMOJI: Record<RepoMigrationStatus, string> = {
  pending: ':white_circle:',
  requested: ':hourglass_flowing_sand:',
  queued: ':hourglass:',
  migrating: ':arrows_counterclockwise:',
  migrated: ':white_check_mark:',
  success: ':white_check_mark:',
  failure: ':x:',
  already: ':information_source:',
  error: ':x:',
  lost: ':grey_question:',
};

/** The batch's one message: each repository's state, then how far it got or how it ended. */
export function migrationProgressMessage(input: MigrationProgressInput): SlackMessage {
  const { batch, from, to } = input;
  const count = plural(batch.repos.length, 'repository', 'repositories');
  const outcome = batch.finishedAt ? summaryText(batch) : progressText(batch);
  return {
    text: `Migrating ${count} to ${to.label}: ${outcome}`,
    blocks: [
      header(`Migrating ${count} to ${to.label}`),
      context(`Started by ${mention(batch.userId)} · from ${escapeMrkdwn(from.label)}`),
      ...listBlocks(batch.repos, (repo) => repoLine(repo, to), {
        maxItems: MAX_REPOS,
        maxChars: LIST_CHARS,
        noun: 'repositories',
      }),
      batch.finishedAt ? section(`*${escapeMrkdwn(outcome)}*`) : context(escapeMrkdwn(outcome)),
    ],
  };
}

function repoLine(repo: BatchRepo, to: Site): string {
  const name = repo.slug ? repoLink(to, repo.slug) : escapeMrkdwn(repoName(repo));
  return `${STATUS_EMOJI[repo.status]} ${name} · ${statusWords(repo, to)}`;
}

function statusWords(repo: BatchRepo, to: Site): string {
  const where = escapeMrkdwn(to.label);
  switch (repo.status) {
    case 'pending':
      return 'waiting to be sent';
    case 'requested':
      return `sent; waiting to hear from ${where}`;
    case 'already':
      return 'already migrating or migrated (nothing sent again)';
    case 'failure':
      return `failed: ${where} could not migrate it`;
    case 'lost':
      return `not finished when I stopped checking; see it on ${where}`;
    case 'error':
      return escapeMrkdwn(truncate(repo.detail ?? 'failed', DETAIL_CHARS));
    default:
      return repo.status;
  }
}

interface Counts {
  migrated: number;
  failed: number;
  already: number;
  done: number;
}

function countsOf(batch: MigrationBatch): Counts {
  const counts: Counts = { migrated: 0, failed: 0, already: 0, done: 0 };
  for (const repo of batch.repos) {
    if (repo.status === 'migrated' || repo.status === 'success') counts.migrated += 1;
    else if (repo.status === 'already') counts.already += 1;
    else if (repo.status === 'failure' || repo.status === 'error' || repo.status === 'lost')
      counts.failed += 1;
    else continue;
    counts.done += 1;
  }
  return counts;
}

function tally(counts: Counts): string {
  const parts = [`${formatNumber(counts.migrated)} migrated`, `${formatNumber(counts.failed)} failed`];
  if (counts.already > 0) parts.push(`${formatNumber(counts.already)} already migrated`);
  return parts.join(', ');
}

/** "3 of 10 done (3 migrated, 0 failed)". */
function progressText(batch: MigrationBatch): string {
  const counts = countsOf(batch);
  return `${formatNumber(counts.done)} of ${formatNumber(batch.repos.length)} done (${tally(counts)})`;
}

/** "9 migrated, 1 failed in 2m 10s". */
export function summaryText(batch: MigrationBatch): string {
  const ms = Date.parse(batch.finishedAt ?? '') - Date.parse(batch.createdAt);
  return `${tally(countsOf(batch))} in ${formatDuration(Math.max(0, ms) / 1000)}`;
}
