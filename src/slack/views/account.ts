import type { User } from '../../ci/schemas.js';
import { profileWebUrl } from '../../ci/web-links.js';
import type { Deployment } from '../../config.js';
import type { LinkedAccount } from '../../store/linked-accounts.js';
import { helpSections } from '../commands/index.js';
import { ACTIONS, VIEWS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, link } from '../text/escape.js';
import { actions, type Button, button, context, header, section } from './blocks.js';
import { type ModalView, modal, textInput } from './modal.js';
import { infoModal, waitingModal } from './modal-states.js';
import type { Site } from './site.js';

export function helpMessage(): SlackMessage {
  const blocks: Block[] = [header('CI from Slack')];
  for (const s of helpSections()) blocks.push(section(`*${s.title}*\n${s.text}`));
  blocks.push(context(escapeMrkdwn('Use `/ci help <command>` for the details of one command.')));
  return { text: 'CI commands: /ci help <command> for details', blocks };
}

export function commandHelpMessage(mrkdwn: string): SlackMessage {
  return { text: mrkdwn, blocks: [section(mrkdwn)] };
}

export interface LoginModalInput {
  site: Site;
  channelId?: string | undefined;
  /** Shown above the fields when a check that ran after the submission failed. */
  problem?: string;
}

export const LOGIN_BLOCKS = { ciToken: 'ci_token', githubToken: 'github_token' } as const;
const LOGIN_TITLE = 'Link CI account';

export function loginModal(input: LoginModalInput): ModalView {
  const blocks: Block[] = [
    section(`Link your *${escapeMrkdwn(input.site.label)}* account. Paste *one* of these:`),
    textInput({
      blockId: LOGIN_BLOCKS.ciToken,
      label: `${input.site.label} API token`,
      optional: true,
      hint: `From ${input.site.webUrl}/account/preferences (Settings → API authentication).`,
      placeholder: 'API token',
    }),
    textInput({
      blockId: LOGIN_BLOCKS.githubToken,
      label: 'or a GitHub token',
      optional: true,
      hint: 'Exchanged once for a CI token, then forgotten: it is never stored.',
      placeholder: 'ghp_…',
    }),
    context(
      ':lock: Your token is stored encrypted and used only for the commands and buttons you use. Unlink any time with `/ci logout`.',
    ),
  ];
  if (input.problem) blocks.unshift(section(`:warning: ${escapeMrkdwn(input.problem)}`));
  return modal({
    callbackId: VIEWS.login,
    title: LOGIN_TITLE,
    submit: 'Link',
    close: 'Cancel',
    blocks,
    metadata: { d: input.site.deployment, c: input.channelId },
  });
}

export function checkingModal(label: string): ModalView {
  return waitingModal(LOGIN_TITLE, `Checking your token with ${escapeMrkdwn(label)}`);
}

export function linkedModal(account: LinkedAccount, label: string): ModalView {
  const text = `:white_check_mark: Linked as *${escapeMrkdwn(account.ciLogin)}* on ${escapeMrkdwn(label)}. Your commands and clicks now act with this account.`;
  return infoModal('Account linked', [section(text)], 'Done');
}

/** The button that opens the login modal of a deployment (under "link your account" answers). */
export function linkAccountButton(deployment: Deployment): Button {
  return button(ACTIONS.linkAccount, 'Link account', { d: deployment }, { style: 'primary' });
}

export interface WhoamiEntry {
  account: LinkedAccount;
  site: Site;
  /** The live answer of GET /users for the deployment asked about, when it was checked. */
  user?: User;
}

export function whoamiMessage(entries: WhoamiEntry[], unlinked: Site[]): SlackMessage {
  if (entries.length === 0) {
    return {
      text: 'You have not linked a CI account yet.',
      blocks: [
        section('You have not linked a CI account yet.'),
        ...actions(
          unlinked.map((u) =>
            button(ACTIONS.linkAccount, `Link ${u.label}`, { d: u.deployment }, { suffix: u.deployment }),
          ),
        ),
      ],
    };
  }
  const lines = entries.map(({ account, site, user }) => {
    const name = user?.name ? ` (${escapeMrkdwn(user.name)})` : '';
    const who = link(profileWebUrl(site.webUrl, account.ciLogin), account.ciLogin);
    const sync = user?.is_syncing ? ' · syncing with GitHub now' : '';
    return `• *${escapeMrkdwn(site.label)}*: ${who}${name}${sync}`;
  });
  return {
    text: `You are linked as ${entries.map((e) => `${e.account.ciLogin} on ${e.site.label}`).join(', ')}.`,
    blocks: [section(`*Your linked CI accounts*\n${lines.join('\n')}`)],
  };
}
