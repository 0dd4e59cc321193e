import type { Repository } from '../../ci/schemas.js';
import type { ShownEnvVar } from '../../ops/env-vars.js';
import { ACTIONS, VIEWS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, mention } from '../text/escape.js';
import { MAX_BLOCKS_PER_MESSAGE } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { actions, type Button, button, type Confirmation, context, header, section } from './blocks.js';
import { blockTextLength } from './fit-blocks.js';
import { type ModalView, modal, textInput } from './modal.js';
import { infoModal, waitingModal } from './modal-states.js';
import { repoLink, type Site } from './site.js';

/**
 * Environment variable views. A private value is never part of any of them: the list shows
 * "•••• (private)", and the modal that asks for a value never shows one back.
 */

export const PRIVATE_VALUE = '•••• (private)';
const SHOWN_VALUE_CHARS = 300;
const SHOWN_NAME_CHARS = 200;
/** Of Slack's ~12,000 characters per message, confirmation dialogs included; the rest is for notes. */
const MAX_LIST_TEXT = 10_500;
/** Header and notes take the rest of the message's 50 blocks. */
const MAX_LISTED = MAX_BLOCKS_PER_MESSAGE - 4;
/** What fits a button value and an action_id (see ACTIONS.deleteEnvVar). */
const BUTTON_NAME = /^.{1,255}$/s;
const BUTTON_ID = /^[A-Za-z0-9-]{1,64}$/;

export function envListMessage(repo: Repository, vars: ShownEnvVar[], site: Site): SlackMessage {
  const title = `Environment variables of ${repo.slug}`;
  const blocks: Block[] = [header(title)];
  if (vars.length === 0) {
    blocks.push(section(`${repoLink(site, repo.slug)} has no environment variables.`));
  }
  let shown = 0;
  let textBudget = MAX_LIST_TEXT;
  for (const envVar of vars) {
    const value = envVar.public
      ? inlineCode(truncate(envVar.value ?? '', SHOWN_VALUE_CHARS))
      : `_${PRIVATE_VALUE}_`;
    const block = section(
      `${inlineCode(truncate(envVar.name, SHOWN_NAME_CHARS))} = ${value}`,
      unsetButton(repo, envVar, site),
    );
    textBudget -= blockTextLength(block);
    if (shown >= MAX_LISTED || textBudget < 0) break;
    blocks.push(block);
    shown += 1;
  }
  if (shown < vars.length) blocks.push(context(`_showing ${shown} of ${vars.length} variables_`));
  blocks.push(
    context(
      `Add or change one with \`/ci env ${escapeMrkdwn(repo.slug)} set NAME\` (add \`--public\` to show its value in build logs).`,
    ),
  );
  const privateCount = vars.filter((v) => !v.public).length;
  return {
    text: escapeMrkdwn(`${title}: ${vars.length} (${privateCount} private)`),
    blocks,
  };
}

/** `quiet` (the command's --quiet) keeps the click's change out of the channel. */
function unsetButton(
  repo: Repository,
  envVar: ShownEnvVar,
  site: Site,
  options: { quiet?: boolean; label?: string } = {},
): Button | undefined {
  if (!BUTTON_NAME.test(envVar.name) || !BUTTON_ID.test(envVar.id)) return undefined;
  return button(
    ACTIONS.deleteEnvVar,
    options.label ?? 'Unset',
    {
      d: site.deployment,
      repoId: repo.id,
      envId: envVar.id,
      name: envVar.name,
      repo: repo.slug,
      q: options.quiet,
    },
    { suffix: envVar.id, style: 'danger', confirm: unsetConfirmation(repo, envVar) },
  );
}

function unsetConfirmation(repo: Repository, envVar: ShownEnvVar): Confirmation {
  return {
    title: 'Unset this variable?',
    text: `${inlineCode(truncate(envVar.name, 80))} will be deleted from ${escapeMrkdwn(truncate(repo.slug, 100))}; later builds will not get it. This cannot be undone.`,
    confirm: 'Unset',
  };
}

/** `env unset NAME`: asks first; the button's confirmation dialog asks again before anything goes. */
export function envUnsetPrompt(
  repo: Repository,
  envVar: ShownEnvVar,
  site: Site,
  options: { quiet: boolean },
): SlackMessage {
  const text = `Unset ${inlineCode(envVar.name)} on ${repoLink(site, repo.slug)}? Later builds will not get it.`;
  const unset = unsetButton(repo, envVar, site, { quiet: options.quiet, label: 'Delete' });
  return {
    text: escapeMrkdwn(`Unset ${envVar.name} on ${repo.slug}?`),
    blocks: [section(text), ...actions([unset])],
  };
}

export function envUnsetAnnouncement(
  userId: string,
  repoSlug: string,
  name: string,
  site: Site,
): SlackMessage {
  return { text: `${mention(userId)} unset ${inlineCode(name)} on ${repoLink(site, repoSlug)}` };
}

export function envUnsetConfirmation(repoSlug: string, name: string, site: Site): SlackMessage {
  return { text: `Unset ${inlineCode(name)} on ${repoLink(site, repoSlug)}.` };
}

export const ENV_SET_BLOCKS = { value: 'env_value' } as const;

export interface EnvSetInput {
  site: Site;
  /** The repository as the user wrote it (`owner/name` or an id); resolved on submit. */
  repo: string;
  name: string;
  public: boolean;
  quiet: boolean;
  channelId: string | undefined;
}

/** The env set modal: the name is fixed, the value is asked for and never shown back. */
export function envSetModal(input: EnvSetInput): ModalView {
  const visibility = input.public
    ? ':eye: *Public*: the value will be shown in build logs and in `/ci env` lists.'
    : `:lock: *Private*: the value is hidden in build logs and is never shown again, here or on ${escapeMrkdwn(input.site.label)}.`;
  return modal({
    callbackId: VIEWS.envSet,
    title: ENV_SET_TITLE,
    submit: 'Save',
    close: 'Cancel',
    blocks: [
      section(
        `Set ${inlineCode(input.name)} on *${escapeMrkdwn(input.repo)}* (${escapeMrkdwn(input.site.label)}).`,
      ),
      context(visibility),
      textInput({
        blockId: ENV_SET_BLOCKS.value,
        label: `Value of ${input.name}`,
        placeholder: 'value',
        maxLength: 3000,
      }),
    ],
    metadata: {
      d: input.site.deployment,
      r: input.repo,
      n: input.name,
      p: input.public,
      q: input.quiet,
      ...(input.channelId ? { c: input.channelId } : {}),
    },
  });
}

/** The env set modal's title, kept while and after saving. */
export const ENV_SET_TITLE = 'Set variable';

/** What the env set modal shows while and after saving: never the value. */
export function envSavingModal(name: string, repo: string): ModalView {
  return waitingModal(ENV_SET_TITLE, `Saving ${inlineCode(name)} on *${escapeMrkdwn(repo)}*`);
}

export interface EnvSet {
  name: string;
  public: boolean;
  repoSlug: string;
}

export function envSavedModal(set: EnvSet, site: Site): ModalView {
  return infoModal(ENV_SET_TITLE, [section(`:white_check_mark: Set ${envSetText(set, site)}.`)]);
}

export function envSetAnnouncement(userId: string, set: EnvSet, site: Site): SlackMessage {
  return { text: `${mention(userId)} set ${envSetText(set, site)}` };
}

/** "`NAME` on owner/name (private)" */
function envSetText(set: EnvSet, site: Site): string {
  return `${inlineCode(set.name)} on ${repoLink(site, set.repoSlug)} (${set.public ? 'public' : 'private'})`;
}
