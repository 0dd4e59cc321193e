import type { SlackMessage } from '../reply.js';
import { escapeMrkdwn } from '../text/escape.js';
import { linkAccountButton } from './account.js';
import { actions, section } from './blocks.js';
import type { Site } from './site.js';

/** Shown only to someone who shared a CI link without a linked account: previews use their own. */
export function unfurlLinkOffer(site: Site): SlackMessage {
  const label = escapeMrkdwn(site.label);
  return {
    text: `Link your ${site.label} account to get previews of the CI links you share.`,
    blocks: [
      section(
        `:link: I can preview the ${label} link you shared once you link your ${label} account. Previews are fetched with your own account, so they show only what you can see.`,
      ),
      ...actions([linkAccountButton(site.deployment)]),
    ],
  };
}
