import { z } from 'zod';
import { DEPLOYMENTS, type Deployment } from '../../config.js';
import { keyPath, type LintWarning } from '../../ops/lint.js';
import { VIEWS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode } from '../text/escape.js';
import { formatNumber, plural } from '../text/format.js';
import { truncate } from '../text/truncate.js';
import { section } from './blocks.js';
import { listBlocks } from './lists.js';
import { type ModalView, modal, textInput } from './modal.js';
import { infoModal, waitingModal } from './modal-states.js';

/** Linting a build configuration: the form, and the warnings as a message or a modal. */

export const LINT_BLOCKS = { config: 'config' } as const;
/** Slack's limit for a text input; longer files can be linted from a message (the shortcut). */
export const MAX_LINT_INPUT = 3000;

export const lintMetadataSchema = z.object({ d: z.enum(DEPLOYMENTS) });

const LINT_TITLE = 'Lint CI config';
/** The title of the result, or of what stopped it. */
export const LINT_RESULT_TITLE = 'Lint result';

export function lintModal(deployment: Deployment): ModalView {
  return modal({
    callbackId: VIEWS.lint,
    title: LINT_TITLE,
    submit: 'Lint',
    close: 'Cancel',
    metadata: { d: deployment },
    blocks: [
      textInput({
        blockId: LINT_BLOCKS.config,
        label: 'Configuration file (.travis.yml)',
        multiline: true,
        maxLength: MAX_LINT_INPUT,
        placeholder: 'language: ruby',
        hint: `Up to ${formatNumber(MAX_LINT_INPUT)} characters. For a longer file, post it in a code block and use the message shortcut “Lint CI config”.`,
      }),
    ],
  });
}

export function lintingModal(): ModalView {
  return waitingModal(LINT_TITLE, 'Checking your configuration');
}

const MAX_WARNING_LINE = 1000;

/** `key.path: message` per warning (a warning about the whole file has no path). */
function warningLine(warning: LintWarning): string {
  const path = keyPath(warning);
  const message = escapeMrkdwn(truncate(warning.message, MAX_WARNING_LINE));
  return path === '' ? `• ${message}` : `• ${inlineCode(path)}: ${message}`;
}

/** At most this much warning text, split over sections of Slack's size. */
const MAX_WARNING_CHARS = 9000;
const MAX_WARNINGS_SHOWN = 100;

export function lintResultBlocks(warnings: readonly LintWarning[]): Block[] {
  if (warnings.length === 0) {
    return [section(':white_check_mark: No warnings: the configuration looks valid.')];
  }
  return [
    section(`:warning: *${plural(warnings.length, 'warning')}*`),
    ...listBlocks(warnings, warningLine, {
      maxItems: MAX_WARNINGS_SHOWN,
      maxChars: MAX_WARNING_CHARS,
      noun: 'warnings',
    }),
  ];
}

function summary(warnings: readonly LintWarning[]): string {
  return warnings.length === 0
    ? 'Lint: no warnings.'
    : `Lint: ${plural(warnings.length, 'warning')} in your configuration.`;
}

export function lintResultModal(warnings: readonly LintWarning[]): ModalView {
  return infoModal(LINT_RESULT_TITLE, lintResultBlocks(warnings), 'Done');
}

export function lintResultMessage(warnings: readonly LintWarning[]): SlackMessage {
  return { text: summary(warnings), blocks: lintResultBlocks(warnings) };
}

export function noCodeBlockMessage(): SlackMessage {
  const text =
    'I found no code block in that message. Put the configuration in a code block (between two lines of three backticks), then use “Lint CI config” on it again, or paste it into `/ci lint`.';
  return { text, blocks: [section(text)] };
}
