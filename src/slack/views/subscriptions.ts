import type { Deployment } from '../../config.js';
import type { SubscriptionFilters } from '../../notify/filter-types.js';
import { announcesStart } from '../../notify/filters.js';
import type { NotifyMeResult } from '../../ops/notify-me.js';
import type { Subscription } from '../../store/subscriptions.js';
import type { ChannelAccess } from '../channel-access.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, mention } from '../text/escape.js';
import { fitList } from '../text/fit-list.js';
import { formatNumber, plural } from '../text/format.js';
import { MAX_SECTION_TEXT } from '../text/limits.js';
import { context, divider, header, section } from './blocks.js';
import { repoLink, type Site } from './site.js';

/** How a subscription's deployment is named and linked (it may no longer be configured). */
export type DeploymentInfo = Pick<Site, 'label' | 'webUrl'>;
export type DescribeDeployment = (deployment: Deployment) => DeploymentInfo;

/** Reasons `Subscriptions.pause` is given, in words; others are shown as they are. */
const PAUSE_REASONS: Readonly<Record<string, string>> = {
  token_rejected: "the subscriber's CI token stopped working",
  not_linked: 'the subscriber unlinked their CI account',
  no_access: 'the subscriber can no longer see the repository',
};
const LIST_ITEMS = 40;
const COVERED_SHOWN = 10;

/** The filters as a reader would say them: "only failures on `main`; events: push, cron". */
export function filtersInWords(filters: SubscriptionFilters): string {
  const branches = filters.branches ? ` on ${orList(filters.branches.map((b) => inlineCode(b)))}` : '';
  const what =
    filters.only === 'failures'
      ? 'only failures'
      : filters.only === 'changes'
        ? 'only changes (broken, fixed, still failing)'
        : 'every build';
  const parts = [`${what}${branches}`];
  if (filters.events) parts.push(`events: ${filters.events.join(', ')}`);
  if (filters.excludeAuthors) {
    parts.push(`except commits by ${orList(filters.excludeAuthors.map((a) => inlineCode(a)))}`);
  }
  if (announcesStart(filters)) parts.push('shown from the start of each build');
  else if (filters.started) parts.push(`\`started:on\` has no effect with \`only:${filters.only}\``);
  if (filters.threads === false) parts.push('failure logs in the channel');
  return parts.join('; ');
}

/** The repository (linked) or `owner/*` a subscription watches. */
export function targetText(sub: Subscription, webUrl: string): string {
  if (sub.target.kind === 'repo') return repoLink({ webUrl }, sub.target.slug);
  return `${inlineCode(`${sub.target.owner}/*`)} (${plural(sub.target.repos.length, 'repository', 'repositories')})`;
}

function pausedText(sub: Subscription): string {
  if (sub.status !== 'paused') return '';
  const reason = sub.pausedReason ?? '';
  const why = PAUSE_REASONS[reason] ?? escapeMrkdwn(reason);
  return ` · :double_vertical_bar: *paused*: ${why}; subscribe again to resume`;
}

export interface SubscribedInput {
  subscription: Subscription;
  previous?: Subscription | undefined;
  /** Who subscribed, for the announcement. */
  userId: string;
  deployment: DeploymentInfo;
}

/** What the channel (or, with --quiet, the subscriber) reads after `/ci subscribe`. */
export function subscribedMessage(input: SubscribedInput, audience: 'channel' | 'subscriber'): SlackMessage {
  const { subscription: sub, previous } = input;
  const who = audience === 'channel' ? `${mention(input.userId)} ` : '';
  const target =
    sub.target.kind === 'repo'
      ? targetText(sub, input.deployment.webUrl)
      : `every repository of *${escapeMrkdwn(sub.target.owner)}* ${audience === 'channel' ? 'they' : 'you'} can see (${sub.target.repos.length})`;
  const where = escapeMrkdwn(input.deployment.label);
  const words = filtersInWords(sub.filters);
  let sentence: string;
  if (!previous) {
    sentence = `${who}${who ? 'subscribed' : 'Subscribed'} this channel to ${target} on ${where}: ${words}.`;
  } else {
    const verb = who ? 'replaced' : 'Replaced';
    const resumed = previous.status === 'paused' ? ' It was paused and is active again.' : '';
    sentence = `${who}${verb} this channel's subscription to ${target} on ${where}: now ${words} (before: ${filtersInWords(previous.filters)}).${resumed}`;
  }
  const blocks: Block[] = [section(sentence)];
  if (sub.target.kind === 'owner') {
    const slugs = sub.target.repos.map((r) => r.slug);
    const more =
      slugs.length > COVERED_SHOWN ? ` and ${formatNumber(slugs.length - COVERED_SHOWN)} more` : '';
    blocks.push(
      context(
        `${slugs.slice(0, COVERED_SHOWN).map(escapeMrkdwn).join(', ')}${more}. Repositories added later are picked up automatically.`,
      ),
    );
  }
  if (audience === 'subscriber' || !previous) {
    blocks.push(
      context('`/ci subscriptions` lists this channel’s subscriptions; `/ci unsubscribe` removes one.'),
    );
  }
  return { text: sentence, blocks };
}

export function unsubscribedMessage(
  sub: Subscription,
  deployment: DeploymentInfo,
  userId: string | undefined,
): SlackMessage {
  const target = targetText(sub, deployment.webUrl);
  const text = userId
    ? `${mention(userId)} unsubscribed this channel from ${target} on ${escapeMrkdwn(deployment.label)}.`
    : `Unsubscribed this channel from ${target} on ${escapeMrkdwn(deployment.label)}.`;
  return { text, blocks: [section(text)] };
}

function subscriptionLine(sub: Subscription, describe: DescribeDeployment, withChannel: boolean): string {
  const info = describe(sub.deployment);
  const channel = withChannel ? `<#${sub.channelId}> · ` : '';
  return `• ${channel}${targetText(sub, info.webUrl)} on ${escapeMrkdwn(info.label)}: ${filtersInWords(sub.filters)} · by ${mention(sub.createdBy)}${pausedText(sub)}`;
}

/** `/ci subscriptions`: the channel's subscriptions with their filters, creator and status. */
export function subscriptionsMessage(subs: Subscription[], describe: DescribeDeployment): SlackMessage {
  if (subs.length === 0) {
    const text = 'This channel has no subscriptions. Add one with `/ci subscribe owner/name`.';
    return { text, blocks: [section(text)] };
  }
  const fitted = fitList(subs, (sub) => subscriptionLine(sub, describe, false), {
    maxItems: LIST_ITEMS,
    maxChars: MAX_SECTION_TEXT,
  });
  const blocks: Block[] = [header('Subscriptions of this channel'), section(fitted.shown.join('\n'))];
  if (fitted.note) blocks.push(context(fitted.note));
  blocks.push(
    context('`/ci unsubscribe <repo>` removes one; `/ci subscribe <repo> [filters]` changes its filters.'),
  );
  return { text: `This channel has ${plural(subs.length, 'subscription')}.`, blocks };
}

/** The App Home section "Channel subscriptions you created". */
export function homeSubscriptionsSection(subs: Subscription[], describe: DescribeDeployment): Block[] {
  const blocks: Block[] = [divider(), section('*Channel subscriptions you created*')];
  if (subs.length === 0) {
    blocks.push(context('None yet. Subscribe a channel with `/ci subscribe owner/name` there.'));
    return blocks;
  }
  const fitted = fitList(subs, (sub) => subscriptionLine(sub, describe, true), {
    maxItems: LIST_ITEMS,
    maxChars: MAX_SECTION_TEXT,
  });
  blocks.push(section(fitted.shown.join('\n')));
  if (fitted.note) blocks.push(context(fitted.note));
  return blocks;
}

/** Why a channel cannot be subscribed: the app would not be able to post there. */
export function cannotPostMessage(
  access: Exclude<ChannelAccess, { ok: true }>,
  botUserId: string | undefined,
): SlackMessage {
  const bot = botUserId ? mention(botUserId) : 'the app';
  const text =
    access.why === 'archived'
      ? ':warning: This channel is archived, so I cannot post builds in it. Nothing was subscribed.'
      : access.why === 'not_member'
        ? `:warning: I am not a member of this channel, so I could not post its builds. Invite me with /invite ${bot} and subscribe again. Nothing was subscribed.`
        : `:warning: I cannot see this conversation, so I could not post its builds. In a private channel, invite me first with /invite ${bot}; otherwise subscribe a channel I am in, or our direct messages. Nothing was subscribed.`;
  return { text, blocks: [section(text)] };
}

export function notifyMeMessage(result: NotifyMeResult, describe: DescribeDeployment): SlackMessage {
  if (!result.on) {
    const text = result.wasOn
      ? 'Direct messages about builds of your commits are off.'
      : 'Direct messages about builds of your commits were already off.';
    return { text, blocks: [section(text)] };
  }
  const as = result.identities.map((identity) => {
    const email = identity.email ? `, ${escapeMrkdwn(identity.email)}` : '';
    return `*${escapeMrkdwn(identity.ciLogin)}*${email} on ${escapeMrkdwn(describe(identity.deployment).label)}`;
  });
  const text = `${result.wasOn ? 'Direct messages stay on' : 'Direct messages are on'}: I will message you about builds of your own commits (as ${orList(as)}) in every repository a channel here is subscribed to. \`/ci notify me off\` stops them.`;
  return { text, blocks: [section(text)] };
}

/** `a`, `a or b`, `a, b or c`. */
function orList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} or ${items.at(-1)}`;
}
