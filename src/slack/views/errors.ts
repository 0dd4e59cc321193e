import type { Deployment } from '../../config.js';
import type { DescribedError } from '../../ops/describe-error.js';
import { ACTIONS } from '../ids.js';
import type { SlackMessage } from '../reply.js';
import { escapeMrkdwn } from '../text/escape.js';
import { linkAccountButton } from './account.js';
import { actions, button, section } from './blocks.js';

export interface ErrorOffers {
  deployment: Deployment;
  /** For a repository that moved: the deployment it moved to and the command to run there. */
  rerun?: { deployment: Deployment; text: string; label: string };
}

/** For a click whose value cannot be read (an old message, or one altered on the way). */
export const STALE_BUTTON_MESSAGE: SlackMessage = {
  text: 'This button is out of date. Run the command again to get a fresh one.',
};

/** The private message for a failure, with a button when the user can fix it with one click. */
export function errorMessage(described: DescribedError, offers: ErrorOffers): SlackMessage {
  const text = `:warning: ${escapeMrkdwn(described.text)}`;
  if (described.offer === 'link_account') {
    return {
      text: described.text,
      blocks: [section(text), ...actions([linkAccountButton(offers.deployment)])],
    };
  }
  if (described.offer === 'open_on_new_deployment' && offers.rerun) {
    const { rerun } = offers;
    return {
      text: described.text,
      blocks: [
        section(text),
        ...actions([
          button(ACTIONS.runOnDeployment, `Run on ${rerun.label}`, { d: rerun.deployment, text: rerun.text }),
        ]),
      ],
    };
  }
  return { text: described.text, blocks: [section(text)] };
}
