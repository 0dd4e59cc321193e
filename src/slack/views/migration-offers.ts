import type { Subscription } from '../../store/subscriptions.js';
import { ACTIONS } from '../ids.js';
import type { SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, mention } from '../text/escape.js';
import { actions, button, context, section } from './blocks.js';
import { repoLink, type Site } from './site.js';
import { type DeploymentInfo, filtersInWords } from './subscriptions.js';

/**
 * Subscriptions follow migrated repositories: the question a channel gets when a repository it
 * follows on the old deployment moved, and what replaces the question once someone moved it.
 */

export interface SubscriptionMoveOfferInput {
  subscription: Subscription;
  /** The repository that moved. */
  slug: string;
  from: DeploymentInfo;
  to: Site;
}

/** The subscription's target in words: the repository (linked there), or `owner/*`. */
function followed(sub: Subscription, site: Pick<Site, 'webUrl'>): string {
  return sub.target.kind === 'repo' ? repoLink(site, sub.target.slug) : inlineCode(`${sub.target.owner}/*`);
}

/** `owner/name` or `owner/*`, as plain text. */
function targetName(sub: Subscription): string {
  return sub.target.kind === 'repo' ? sub.target.slug : `${sub.target.owner}/*`;
}

export function subscriptionMoveOffer(input: SubscriptionMoveOfferInput): SlackMessage {
  const { subscription: sub, from, to } = input;
  const moved = escapeMrkdwn(input.slug);
  const where = escapeMrkdwn(to.label);
  const old = escapeMrkdwn(from.label);
  const what = sub.target.kind === 'repo' ? 'its subscription' : `its subscription to ${followed(sub, to)}`;
  const text = escapeMrkdwn(
    `${input.slug} moved to ${to.label}. This channel follows it on ${from.label}, which does not build it any more. Move the subscription to ${to.label}?`,
  );
  return {
    text,
    blocks: [
      section(
        `:truck: *${moved}* moved to ${where}. This channel follows it on ${old}, which does not build it any more. Move ${what} to ${where}, with the same filters (${filtersInWords(sub.filters)})?`,
      ),
      context(
        `Whoever clicks subscribes the channel with their own ${where} account, which must see the repository.`,
      ),
      ...actions([
        button(
          ACTIONS.moveSubscription,
          `Move to ${to.label}`,
          { d: to.deployment, sub: sub.id, what: targetName(sub) },
          { style: 'primary' },
        ),
      ]),
    ],
  };
}

export interface SubscriptionMovedInput {
  from: Subscription;
  to: Subscription;
  userId: string;
  site: Site;
  fromLabel: string;
}

/** Replaces the question: "@user moved this channel's subscription to owner/name to travis-ci.com". */
export function subscriptionMovedMessage(input: SubscriptionMovedInput): SlackMessage {
  const { to, site } = input;
  const target = followed(to, site);
  const filters = filtersInWords(to.filters);
  const text = `${mention(input.userId)} moved this channel's subscription to ${target} from ${escapeMrkdwn(input.fromLabel)} to ${escapeMrkdwn(site.label)} (${filters}).`;
  return { text, blocks: [section(`:white_check_mark: ${text}`)] };
}
