import type { App } from '@slack/bolt';
import type { SshKey } from '../../ci/schemas.js';
import { parseJsonOrUndefined } from '../../json.js';
import { openSession } from '../../ops/actor.js';
import { looksLikePrivateKey, replaceSshKey } from '../../ops/ssh-keys.js';
import type { Services } from '../../services.js';
import { VIEWS } from '../ids.js';
import { fillModal, submissionInteraction } from '../modal-flow.js';
import {
  SSH_KEY_BLOCKS,
  sshKeyMetadataSchema,
  sshKeySavedModal,
  sshKeySavingModal,
  sshKeySetAnnouncement,
} from '../views/keys.js';
import { inputValue } from '../views/modal.js';

/**
 * The SSH key form's submit: the key is checked for its armour at once, then sent in one PATCH to
 * the CI service with the submitter's token. It is never stored, logged or shown; the channel the
 * form came from hears only that the key was set.
 */
export function registerSshKeySetSubmission(app: App, services: Services): void {
  app.view(VIEWS.sshKeySet, async ({ ack, body, view, client }) => {
    const meta = sshKeyMetadataSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
    const value = inputValue(view.state.values, SSH_KEY_BLOCKS.key);
    if (!meta.success) {
      await ack({
        response_action: 'errors',
        errors: { [SSH_KEY_BLOCKS.key]: 'This form expired; run /ci sshkey set again.' },
      });
      return;
    }
    if (value === undefined || !looksLikePrivateKey(value)) {
      await ack({
        response_action: 'errors',
        errors: {
          [SSH_KEY_BLOCKS.key]:
            'Paste the whole private key, from its -----BEGIN … PRIVATE KEY----- line to its -----END … PRIVATE KEY----- line.',
        },
      });
      return;
    }
    const description = inputValue(view.state.values, SSH_KEY_BLOCKS.description)?.trim();

    const { d: deployment, id, s: slug, c: channelId, q: quiet } = meta.data;
    const repo = { id, slug };
    await ack({ response_action: 'update', view: sshKeySavingModal(slug) });
    const submitter = { teamId: body.team?.id ?? view.team_id, userId: body.user.id };
    const ix = submissionInteraction(services, client, submitter, channelId, VIEWS.sshKeySet);
    const webUrl = services.ci.deployment(deployment).webUrl;
    const failure = { deployment, action: `set the SSH key of ${slug}`, subject: slug, isChange: true };
    let saved: SshKey | undefined;
    await fillModal(ix, view.id, { title: 'Set SSH key', failure }, async () => {
      const { session } = await openSession(services, submitter, deployment);
      saved = await replaceSshKey(session, repo, { value, ...(description ? { description } : {}) });
      return sshKeySavedModal(repo, saved, webUrl);
    });
    if (saved && !quiet && channelId) {
      await ix.reply
        .publicly(sshKeySetAnnouncement(submitter.userId, repo, webUrl))
        .catch((error: unknown) => {
          ix.logger.warn({ err: error }, 'could not announce a new SSH key');
        });
    }
  });
}
