import { z } from 'zod';
import type { SshKey } from '../../ci/schemas.js';
import { DEPLOYMENTS, type Deployment } from '../../config.js';
import { MAX_ASSIGNMENTS, SECURE_YAML_HEADER, secureYamlEntry } from '../../ops/encrypt.js';
import type { EncryptOutcome, PublicKey } from '../../ops/keys.js';
import type { RepoSummary } from '../../ops/ssh-keys.js';
import { ACTIONS, VIEWS } from '../ids.js';
import type { Block, SlackMessage } from '../reply.js';
import { codeBlock } from '../text/code-block.js';
import { escapeMrkdwn, inlineCode, mention } from '../text/escape.js';
import { MAX_SECTION_TEXT } from '../text/limits.js';
import { actions, button, context, section } from './blocks.js';
import { packLines } from './lists.js';
import { type ModalView, modal, textInput } from './modal.js';
import { infoModal, waitingModal } from './modal-states.js';
import { repoLink, type Site } from './site.js';

/** Public keys, `secure:` values and SSH keys: messages and modals. */

/** The ``` fences and their newlines around a code block's text. */
const CODE_FENCES = 8;

const fingerprintText = (fingerprint: string | null | undefined) =>
  fingerprint ? inlineCode(fingerprint) : '_not given by the service_';

// ---- pubkey ----

export function publicKeyMessage(key: PublicKey, site: Site): SlackMessage {
  return {
    text: `Public key of ${escapeMrkdwn(key.slug)}`,
    blocks: [
      section(
        `*Public key of ${repoLink(site, key.slug)}*\nFingerprint: ${fingerprintText(key.fingerprint)}`,
      ),
      section(codeBlock(key.key, MAX_SECTION_TEXT)),
      context(
        `Make \`secure:\` values with it: ${inlineCode(`/ci encrypt ${key.slug}`)} (up to ${key.maxBytes} bytes each).`,
      ),
    ],
  };
}

export interface RegenerateOffer {
  site: Site;
  slug: string;
  fingerprint: string | undefined;
  quiet: boolean;
}

export const REGENERATE_WARNING =
  'Every value encrypted with the old key stops working: builds can no longer decrypt their `secure:` values until they are encrypted again with the new key.';

export function regenerateKeyOffer(offer: RegenerateOffer): SlackMessage {
  return {
    text: `Regenerate the key of ${escapeMrkdwn(offer.slug)}?`,
    blocks: [
      section(
        `*Regenerate the key of ${repoLink(offer.site, offer.slug)}?*\nCurrent fingerprint: ${fingerprintText(offer.fingerprint)}\n:warning: ${REGENERATE_WARNING}`,
      ),
      ...actions([
        button(
          ACTIONS.regenerateKey,
          'Regenerate key',
          { d: offer.site.deployment, repo: offer.slug, quiet: offer.quiet },
          {
            style: 'danger',
            confirm: {
              title: 'Regenerate the key?',
              text: `${REGENERATE_WARNING} This cannot be undone.`,
              confirm: 'Regenerate',
            },
          },
        ),
      ]),
    ],
  };
}

export function keyRegeneratedMessage(
  userId: string,
  key: Pick<PublicKey, 'slug' | 'fingerprint'>,
  site: Site,
): SlackMessage {
  return {
    text: `${mention(userId)} regenerated the key of ${escapeMrkdwn(key.slug)}`,
    blocks: [
      section(
        `${mention(userId)} regenerated the key of ${repoLink(site, key.slug)}. New fingerprint: ${fingerprintText(key.fingerprint)}`,
      ),
      context(
        `Values encrypted with the old key no longer work; encrypt them again with ${inlineCode(`/ci encrypt ${key.slug}`)}.`,
      ),
    ],
  };
}

// ---- encrypt ----

export const ENCRYPT_BLOCKS = { assignments: 'assignments' } as const;
/** The encrypt form's title, kept while its key is looked up and while it encrypts. */
export const ENCRYPT_TITLE = 'Encrypt values';

export const encryptMetadataSchema = z.object({
  d: z.enum(DEPLOYMENTS),
  s: z.string().min(1).max(300),
  /** The longest NAME=value (bytes) the key could encrypt when the form was opened. */
  m: z.number().int().positive(),
});
export type EncryptMetadata = z.output<typeof encryptMetadataSchema>;

export function encryptModal(key: PublicKey, deployment: Deployment): ModalView {
  const metadata: EncryptMetadata = { d: deployment, s: key.slug, m: key.maxBytes };
  return modal({
    callbackId: VIEWS.encrypt,
    title: ENCRYPT_TITLE,
    submit: 'Encrypt',
    close: 'Cancel',
    metadata,
    blocks: [
      section(
        `Encrypt values for ${inlineCode(key.slug)} with its public key (fingerprint ${fingerprintText(key.fingerprint)}).`,
      ),
      textInput({
        blockId: ENCRYPT_BLOCKS.assignments,
        label: 'NAME=value, one per line',
        multiline: true,
        placeholder: 'DEPLOY_TOKEN=…',
        hint: `Up to ${MAX_ASSIGNMENTS} lines, each at most ${key.maxBytes} bytes. Nothing is stored, logged or posted: the result is shown in this form only.`,
      }),
    ],
  });
}

export function encryptingModal(slug: string): ModalView {
  return waitingModal(ENCRYPT_TITLE, `Encrypting with the public key of ${inlineCode(slug)}`);
}

/** The snippet in code blocks of at most MAX_SECTION_TEXT characters, split between entries. */
function snippetBlocks(outcome: EncryptOutcome): Block[] {
  const lines = [SECURE_YAML_HEADER, ...outcome.values.map(secureYamlEntry)];
  return packLines(lines, MAX_SECTION_TEXT - CODE_FENCES).map((text) =>
    section(codeBlock(text, MAX_SECTION_TEXT)),
  );
}

export function encryptResultModal(outcome: EncryptOutcome): ModalView {
  const blocks: Block[] = [];
  if (outcome.values.length > 0) {
    blocks.push(
      section(
        `:lock: Paste this into the configuration file of ${inlineCode(outcome.slug)}${outcome.values.length > 1 ? ' (one entry per variable)' : ''}:`,
      ),
      ...snippetBlocks(outcome),
    );
  }
  if (outcome.tooLong.length > 0) {
    blocks.push(
      section(
        `:warning: *Not encrypted, too long:*\n${outcome.tooLong.map((e) => `• ${escapeMrkdwn(e.message)}`).join('\n')}`,
      ),
    );
  }
  blocks.push(
    context(
      `Key fingerprint ${fingerprintText(outcome.fingerprint)}. Only builds of this repository can decrypt these values; if its key is regenerated, encrypt them again.`,
    ),
  );
  return infoModal('Encrypted values', blocks, 'Done');
}

// ---- SSH key ----

export function sshKeyMessage(repo: RepoSummary, key: SshKey | undefined, site: Site): SlackMessage {
  if (!key) {
    return {
      text: `${escapeMrkdwn(repo.slug)} has no custom SSH key.`,
      blocks: [
        section(`${repoLink(site, repo.slug)} has no custom SSH key: builds use the default deploy key.`),
        context(`Add one with ${inlineCode(`/ci sshkey ${repo.slug} set`)}.`),
      ],
    };
  }
  return {
    text: `SSH key of ${escapeMrkdwn(repo.slug)}`,
    blocks: [section(sshKeyText(repo, key, site))],
  };
}

function sshKeyText(repo: RepoSummary, key: SshKey, site: Site): string {
  const description = key.description ? escapeMrkdwn(key.description) : '_no description_';
  return `*Custom SSH key of ${repoLink(site, repo.slug)}*\nDescription: ${description}\nFingerprint: ${fingerprintText(key.fingerprint)}`;
}

export const SSH_KEY_DELETE_WARNING =
  'Builds will use the default deploy key again; anything that needs this key (private submodules, deployments) will fail.';

export function sshKeyDeleteOffer(
  repo: RepoSummary,
  key: SshKey,
  site: Site,
  options: { quiet: boolean },
): SlackMessage {
  return {
    text: `Delete the SSH key of ${escapeMrkdwn(repo.slug)}?`,
    blocks: [
      section(sshKeyText(repo, key, site)),
      ...actions([
        button(
          ACTIONS.deleteSshKey,
          'Delete SSH key',
          { d: site.deployment, repoId: repo.id, repo: repo.slug, quiet: options.quiet },
          {
            style: 'danger',
            confirm: {
              title: 'Delete the SSH key?',
              text: `The custom SSH key of ${escapeMrkdwn(repo.slug)} will be deleted. ${SSH_KEY_DELETE_WARNING}`,
              confirm: 'Delete',
            },
          },
        ),
      ]),
    ],
  };
}

export function sshKeyDeletedMessage(userId: string, repo: RepoSummary, site: Site): SlackMessage {
  return {
    text: `${mention(userId)} deleted the SSH key of ${escapeMrkdwn(repo.slug)}`,
    blocks: [section(`${mention(userId)} deleted the custom SSH key of ${repoLink(site, repo.slug)}.`)],
  };
}

export function sshKeySetAnnouncement(userId: string, repo: RepoSummary, site: Site): SlackMessage {
  return {
    text: `${mention(userId)} set the SSH key of ${escapeMrkdwn(repo.slug)}`,
    blocks: [section(`${mention(userId)} set the SSH key of ${repoLink(site, repo.slug)}.`)],
  };
}

export const SSH_KEY_BLOCKS = { key: 'private_key', description: 'description' } as const;
/** The SSH key form's title, kept while the repository is looked up and while the key is saved. */
export const SSH_KEY_SET_TITLE = 'Set SSH key';
/** Slack's limit for a text input. */
export const MAX_SSH_KEY_CHARS = 3000;
export const MAX_SSH_KEY_DESCRIPTION = 255;

export const sshKeyMetadataSchema = z.object({
  d: z.enum(DEPLOYMENTS),
  id: z.number().int().positive(),
  s: z.string().min(1).max(300),
  /** The channel to announce in. */
  c: z.string().max(50).optional(),
  q: z.boolean().optional(),
});
export type SshKeyMetadata = z.output<typeof sshKeyMetadataSchema>;

export function sshKeySetModal(input: {
  deployment: Deployment;
  repo: RepoSummary;
  current: SshKey | undefined;
  channelId: string | undefined;
  quiet: boolean;
}): ModalView {
  const metadata: SshKeyMetadata = {
    d: input.deployment,
    id: input.repo.id,
    s: input.repo.slug,
    ...(input.channelId ? { c: input.channelId } : {}),
    ...(input.quiet ? { q: true } : {}),
  };
  const replaces = input.current
    ? ` This replaces the current key (fingerprint ${fingerprintText(input.current.fingerprint)}).`
    : '';
  return modal({
    callbackId: VIEWS.sshKeySet,
    title: SSH_KEY_SET_TITLE,
    submit: 'Save key',
    close: 'Cancel',
    metadata,
    blocks: [
      section(`The SSH key builds of ${inlineCode(input.repo.slug)} use to clone and deploy.${replaces}`),
      textInput({
        blockId: SSH_KEY_BLOCKS.key,
        label: 'Private key',
        multiline: true,
        maxLength: MAX_SSH_KEY_CHARS,
        placeholder: '-----BEGIN OPENSSH PRIVATE KEY-----',
        hint: 'The whole private key, without a passphrase. It goes straight to the CI service: this app never stores, logs or shows it.',
      }),
      textInput({
        blockId: SSH_KEY_BLOCKS.description,
        label: 'Description',
        optional: true,
        maxLength: MAX_SSH_KEY_DESCRIPTION,
        placeholder: 'deploy key for the docs site',
      }),
    ],
  });
}

export function sshKeySavingModal(slug: string): ModalView {
  return waitingModal(SSH_KEY_SET_TITLE, `Saving the SSH key of ${inlineCode(slug)}`);
}

export function sshKeySavedModal(repo: RepoSummary, key: SshKey, site: Site): ModalView {
  return infoModal('SSH key saved', [section(`:white_check_mark: ${sshKeyText(repo, key, site)}`)], 'Done');
}
