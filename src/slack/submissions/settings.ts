import type { App } from '@slack/bolt';
import { z } from 'zod';
import { DEPLOYMENTS } from '../../config.js';
import { changedSettings, saveRepoSettings } from '../../ops/settings.js';
import type { Services } from '../../services.js';
import { VIEWS } from '../ids.js';
import { fillModal } from '../modal-flow.js';
import type { SlackMessage } from '../reply.js';
import {
  readSettingsForm,
  SETTINGS_TITLE,
  type SettingsMetadata,
  settingsAnnouncement,
  settingsMessageModal,
  settingsSavedModal,
  settingsSavingModal,
} from '../views/settings.js';
import { announceFromModal, fieldErrors, formMetadata, submissionInteraction } from './form.js';

const metadataSchema: z.ZodType<SettingsMetadata> = z.object({
  d: z.enum(DEPLOYMENTS),
  id: z.number().int().positive(),
  r: z.string().min(1).max(300),
  q: z.boolean(),
  c: z.string().optional(),
  o: z.record(z.string(), z.union([z.boolean(), z.number(), z.string()])),
});

/**
 * The settings editor's submit: numbers are checked before the ack, then only the keys whose
 * value differs from what the editor showed are PATCHed, and the change is announced.
 */
export function registerSettingsSubmission(app: App, services: Services): void {
  app.view(VIEWS.settings, async ({ ack, body, view, client }) => {
    const meta = formMetadata(body, metadataSchema);
    if (!meta) {
      await ack({
        response_action: 'update',
        view: settingsMessageModal('This form expired; run `/ci settings` again.'),
      });
      return;
    }
    const { d: deployment, id: repoId, r: repoSlug, q: quiet, c: channelId, o: shown } = meta;
    const form = readSettingsForm(view.state.values, shown);
    if (!form.ok) {
      await ack(fieldErrors(form.errors));
      return;
    }
    const changes = changedSettings(shown, form.values);
    if (changes.length === 0) {
      await ack({
        response_action: 'update',
        view: settingsMessageModal('Nothing changed, so nothing was saved.'),
      });
      return;
    }
    await ack({ response_action: 'update', view: settingsSavingModal(repoSlug) });

    const ix = submissionInteraction(services, client, body, channelId);
    const about = {
      deployment,
      action: `change the settings of ${repoSlug}`,
      subject: repoSlug,
      isChange: true,
    };
    // With --quiet the modal itself is the private confirmation.
    let announcement: SlackMessage | undefined;
    await fillModal(ix, view.id, { title: SETTINGS_TITLE, about }, async ({ session, site }) => {
      await saveRepoSettings(session, repoId, changes);
      announcement = settingsAnnouncement(ix.actor.userId, repoSlug, changes, site);
      return settingsSavedModal(repoSlug, changes, site);
    });
    if (announcement && !quiet) await announceFromModal(ix, announcement);
  });
}
