import type { App } from '@slack/bolt';
import { z } from 'zod';
import { DEPLOYMENTS } from '../../config.js';
import { parseJsonOrUndefined } from '../../json.js';
import { openSession } from '../../ops/actor.js';
import { changedSettings, saveRepoSettings } from '../../ops/settings.js';
import type { Services } from '../../services.js';
import { placeOf } from '../acting.js';
import { VIEWS } from '../ids.js';
import { escapeMrkdwn } from '../text/escape.js';
import { mention } from '../views/lines.js';
import {
  readSettingsForm,
  type SettingsMetadata,
  settingsAnnouncement,
  settingsMessageModal,
  settingsSavedModal,
} from '../views/settings.js';
import { announceFromModal, describeForModal, submissionInteraction, updateModal } from './common.js';

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
    const meta = metadataSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
    if (!meta.success) {
      await ack({
        response_action: 'update',
        view: settingsMessageModal('This form expired; run `/ci settings` again.'),
      });
      return;
    }
    const { d: deployment, id: repoId, r: repoSlug, q: quiet, c: channelId, o: shown } = meta.data;
    const form = readSettingsForm(view.state.values, shown);
    if (!form.ok) {
      await ack({ response_action: 'errors', errors: form.errors });
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
    await ack({
      response_action: 'update',
      view: settingsMessageModal(
        `:hourglass_flowing_sand: Saving the settings of *${escapeMrkdwn(repoSlug)}*…`,
      ),
    });

    const actor = { teamId: body.team?.id ?? view.team_id, userId: body.user.id };
    const ix = submissionInteraction(services, client, actor, channelId, VIEWS.settings);
    const place = placeOf(ix, deployment);
    let login: string | undefined;
    try {
      const { session, account } = await openSession(services, actor, deployment);
      login = account.ciLogin;
      await saveRepoSettings(session, repoId, changes);
      await updateModal(services, client, view.id, settingsSavedModal(repoSlug, changes, place));
      // With --quiet the modal itself is the private confirmation.
      if (!quiet)
        await announceFromModal(ix, settingsAnnouncement(mention(actor.userId), repoSlug, changes, place));
    } catch (error) {
      const text = describeForModal(services, error, {
        deploymentLabel: place.label,
        action: `change the settings of ${repoSlug}`,
        subject: repoSlug,
        login,
        isChange: true,
      });
      await updateModal(services, client, view.id, settingsMessageModal(`:warning: ${escapeMrkdwn(text)}`));
    }
  });
}
