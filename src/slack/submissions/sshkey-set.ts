import type { App } from '@slack/bolt';
import { looksLikePrivateKey, replaceSshKey } from '../../ops/ssh-keys.js';
import type { Services } from '../../services.js';
import { VIEWS } from '../ids.js';
import { fillModal } from '../modal-flow.js';
import type { SlackMessage } from '../reply.js';
import {
  SSH_KEY_BLOCKS,
  SSH_KEY_SET_TITLE,
  sshKeyMetadataSchema,
  sshKeySavedModal,
  sshKeySavingModal,
  sshKeySetAnnouncement,
} from '../views/keys.js';
import { inputValue } from '../views/modal.js';
import { announceFromModal, fieldErrors, formExpired, formMetadata, submissionInteraction } from './form.js';

/**
 * The SSH key form's submit: the key is checked for its armour at once, then sent in one PATCH to
 * the CI service with the submitter's token. It is never stored, logged or shown; the channel the
 * form came from hears only that the key was set.
 */
export function registerSshKeySetSubmission(app: App, services: Services): void {
  app.view(VIEWS.sshKeySet, async ({ ack, body, view, client }) => {
    const meta = formMetadata(body, sshKeyMetadataSchema);
    const value = inputValue(view.state.values, SSH_KEY_BLOCKS.key);
    if (!meta) {
      await ack(fieldErrors({ [SSH_KEY_BLOCKS.key]: formExpired('sshkey set') }));
      return;
    }
    if (value === undefined || !looksLikePrivateKey(value)) {
      await ack(
        fieldErrors({
          [SSH_KEY_BLOCKS.key]:
            'Paste the whole private key, from its -----BEGIN … PRIVATE KEY----- line to its -----END … PRIVATE KEY----- line.',
        }),
      );
      return;
    }
    const description = inputValue(view.state.values, SSH_KEY_BLOCKS.description)?.trim();

    const { d: deployment, id, s: slug, c: channelId, q: quiet } = meta;
    const repo = { id, slug };
    await ack({ response_action: 'update', view: sshKeySavingModal(slug) });
    const ix = submissionInteraction(services, client, body, channelId);
    const about = { deployment, action: `set the SSH key of ${slug}`, subject: slug, isChange: true };
    // Set once the key is saved; announced after the modal says so.
    let announcement: SlackMessage | undefined;
    await fillModal(ix, view.id, { title: SSH_KEY_SET_TITLE, about }, async ({ session, site }) => {
      const key = await replaceSshKey(session, repo, { value, ...(description ? { description } : {}) });
      announcement = sshKeySetAnnouncement(ix.actor.userId, repo, site);
      return sshKeySavedModal(repo, key, site);
    });
    if (announcement && !quiet) await announceFromModal(ix, announcement);
  });
}
