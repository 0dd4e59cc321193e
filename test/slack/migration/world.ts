import assert from 'node:assert/strict';
import type { MigrationTiming } from '../../../src/migration/runner.js';
import type { AddRepoInput } from '../../fakes/ci/state-base.js';
import type { SlackCall, StoredMessage } from '../../fakes/slack/index.js';
import { type Harness, startHarness } from '../../helpers/app-harness.js';
import { elementOf, type Message, shownText } from '../../helpers/slack-messages.js';

/**
 * Migration tests: two fake CI services (`h.orgCi` is the old deployment, `h.ci` the new one), fast
 * migration checks, and U0USER linked as rkh on both (U0VISITOR as visitor, on com only).
 */

export const FAST_MIGRATION = {
  firstCheckMs: 20,
  maxCheckMs: 60,
  giveUpAfterMs: 10_000,
  sweepIntervalMs: 100,
};

export async function startMigrationHarness(
  options: { pusher?: boolean; migrationTiming?: Partial<MigrationTiming> } = {},
): Promise<Harness> {
  const h = await startHarness({
    orgCi: true,
    pusher: options.pusher ?? false,
    migrationTiming: options.migrationTiming ?? FAST_MIGRATION,
    // Tests edit many messages within a minute; Slack's tier would space them a second apart.
    env: { SLACK_RATE_BUDGETS: 'chat.update=6000,chat.postMessage=6000' },
  });
  await h.link();
  await h.link({ deployment: 'org' });
  await h.link({ userId: 'U0VISITOR', login: 'visitor' });
  mirrorMigrations(h);
  return h;
}

/**
 * The two fakes share no state: when a migration ends on the new deployment, the old one marks
 * its repository migrated, as the real old deployment does.
 */
function mirrorMigrations(h: Harness): void {
  h.ci.events.on('migration', (event: { repositoryId: number; status: string }) => {
    if (event.status !== 'migrated' && event.status !== 'success') return;
    const slug = h.ci.state.getRepo(event.repositoryId)?.slug;
    const old = slug === undefined ? undefined : h.orgCi?.state.getRepo(slug);
    if (old) {
      old.migrated = true;
      old.active = false;
    }
  });
}

/** The same repository on both deployments; rkh is its admin on both (ids differ, as for real). */
export function addRepoOnBoth(
  h: Harness,
  slug: string,
  com: Omit<AddRepoInput, 'slug'> = {},
): { comId: number; orgId: number } {
  const comRepo = h.ci.state.addRepo({ slug, ...com });
  h.ci.state.grant('rkh', comRepo.id, 'admin');
  const orgRepo = h.orgCi?.state.addRepo({ slug, id: comRepo.id + 1_000_000 });
  assert.ok(orgRepo, 'the harness has an org deployment');
  h.orgCi?.state.grant('rkh', orgRepo.id, 'admin');
  return { comId: comRepo.id, orgId: orgRepo.id };
}

let channels = 0;
/** A channel of its own for each test, so progress messages do not mix. */
export function freshChannel(): string {
  channels += 1;
  return `CMIG${channels}`;
}

/** `/ci migrate …` in a channel: the private confirmation. */
export async function askToMigrate(
  h: Harness,
  targets: string,
  options: { channelId: string; userId?: string },
): Promise<Message> {
  const { ack, responseUrl } = await h.command(`migrate ${targets}`, options);
  assert.ok(ack.ms < 1000, `ack took ${ack.ms} ms`);
  return h.answer(responseUrl);
}

/** Clicks Confirm under a confirmation and returns what replaced it. */
export async function confirm(
  h: Harness,
  confirmation: Message,
  options: { channelId: string; userId?: string },
): Promise<Message> {
  const button = elementOf(confirmation, 'migration.confirm');
  const click = await h.click({ actionId: button.action_id, value: button.value, ...options });
  assert.ok(click.ack.ms < 1000);
  return h.answer(click.responseUrl);
}

/** The command, the confirmation and the click: resolves with the batch's final message. */
export async function migrate(
  h: Harness,
  targets: string,
  options: { channelId: string; userId?: string },
): Promise<StoredMessage> {
  const confirmation = await askToMigrate(h, targets, options);
  const started = await confirm(h, confirmation, options);
  assert.match(shownText(started), /Started moving/);
  return finalMessage(h, options.channelId);
}

const FINAL = /\d+ migrated, \d+ failed(, \d+ already migrated)? in \d/;

/** The progress message of the channel once it shows the summary (waiting for it if need be). */
export async function finalMessage(h: Harness, channel: string, timeoutMs = 5_000): Promise<StoredMessage> {
  await h.slack.waitForCall(
    'chat.update',
    (call: SlackCall) => call.args.channel === channel && FINAL.test(String(call.args.text)),
    timeoutMs,
  );
  const message = h.slack.messages(channel).find((m) => FINAL.test(m.text));
  assert.ok(message, `a final migration message in ${channel}`);
  return message;
}

/** The lines of a progress message, one per repository, as a reader sees them. */
export function progressText(message: StoredMessage): string {
  return shownText(message as unknown as Message);
}
