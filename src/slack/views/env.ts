import type { Repository } from '../../ci/schemas.js';
import type { Deployment } from '../../config.js';
import type { ShownEnvVar } from '../../ops/env-vars.js';
import { ACTIONS, VIEWS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode } from '../text/escape.js';
import { MAX_BLOCKS_PER_MESSAGE } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { actions, type Button, button, type Confirmation, context, header, section } from './blocks.js';
import { shownTextLength } from './lines.js';
import { type ModalView, modal, textInput } from './modal.js';
import { repoLink } from './repos.js';

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

export interface EnvPlace {
  deployment: Deployment;
  webUrl: string;
  /** Keeps the change out of the channel (`--quiet`). */
  quiet?: boolean;
}

export function envListMessage(repo: Repository, vars: ShownEnvVar[], place: EnvPlace): SlackMessage {
  const title = `Environment variables of ${repo.slug}`;
  const blocks: Block[] = [header(title)];
  if (vars.length === 0) {
    blocks.push(section(`${repoLink(place, repo.slug)} has no environment variables.`));
  }
  let shown = 0;
  let textBudget = MAX_LIST_TEXT;
  for (const envVar of vars) {
    const value = envVar.public
      ? inlineCode(truncate(envVar.value ?? '', SHOWN_VALUE_CHARS))
      : `_${PRIVATE_VALUE}_`;
    const block = section(
      `${inlineCode(truncate(envVar.name, SHOWN_NAME_CHARS))} = ${value}`,
      unsetButton(repo, envVar, place),
    );
    textBudget -= shownTextLength(block);
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

function unsetButton(
  repo: Repository,
  envVar: ShownEnvVar,
  place: EnvPlace,
  label = 'Unset',
): Button | undefined {
  if (!BUTTON_NAME.test(envVar.name) || !BUTTON_ID.test(envVar.id)) return undefined;
  return button(
    ACTIONS.deleteEnvVar,
    label,
    {
      d: place.deployment,
      repoId: repo.id,
      envId: envVar.id,
      name: envVar.name,
      repo: repo.slug,
      q: place.quiet,
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
export function envUnsetPrompt(repo: Repository, envVar: ShownEnvVar, place: EnvPlace): SlackMessage {
  const text = `Unset ${inlineCode(envVar.name)} on ${repoLink(place, repo.slug)}? Later builds will not get it.`;
  const unset = unsetButton(repo, envVar, place, 'Delete');
  return {
    text: escapeMrkdwn(`Unset ${envVar.name} on ${repo.slug}?`),
    blocks: [section(text), ...actions([unset])],
  };
}

export function envUnsetAnnouncement(userMention: string, repoSlug: string, name: string, place: EnvPlace) {
  return { text: `${userMention} unset ${inlineCode(name)} on ${repoLink(place, repoSlug)}` };
}

export function envUnsetConfirmation(repoSlug: string, name: string, place: EnvPlace): SlackMessage {
  return { text: `Unset ${inlineCode(name)} on ${repoLink(place, repoSlug)}.` };
}

export const ENV_SET_BLOCKS = { value: 'env_value' } as const;

export interface EnvSetInput {
  deployment: Deployment;
  /** The repository as the user wrote it (`owner/name` or an id); resolved on submit. */
  repo: string;
  name: string;
  public: boolean;
  quiet: boolean;
  channelId: string | undefined;
  label: string;
}

/** The env set modal: the name is fixed, the value is asked for and never shown back. */
export function envSetModal(input: EnvSetInput): ModalView {
  const visibility = input.public
    ? ':eye: *Public*: the value will be shown in build logs and in `/ci env` lists.'
    : `:lock: *Private*: the value is hidden in build logs and is never shown again, here or on ${escapeMrkdwn(input.label)}.`;
  return modal({
    callbackId: VIEWS.envSet,
    title: 'Set variable',
    submit: 'Save',
    close: 'Cancel',
    blocks: [
      section(
        `Set ${inlineCode(input.name)} on *${escapeMrkdwn(input.repo)}* (${escapeMrkdwn(input.label)}).`,
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
      d: input.deployment,
      r: input.repo,
      n: input.name,
      p: input.public,
      q: input.quiet,
      ...(input.channelId ? { c: input.channelId } : {}),
    },
  });
}

/** What the env set modal shows while and after saving (never the value). */
export function envSetStatusModal(mrkdwn: string): ModalView {
  return modal({ callbackId: VIEWS.info, title: 'Set variable', close: 'Close', blocks: [section(mrkdwn)] });
}

export function envSetText(result: { name: string; public: boolean; repoSlug: string }, place: EnvPlace) {
  return `${inlineCode(result.name)} on ${repoLink(place, result.repoSlug)} (${result.public ? 'public' : 'private'})`;
}
