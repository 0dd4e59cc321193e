import type { Deployment } from '../config.js';
import type { RepoRef } from '../ops/references.js';
import { describeRepoRef } from '../ops/resolve.js';
import { loadRepoSettings } from '../ops/settings.js';
import { actAs, placeOf } from './acting.js';
import type { Interaction } from './interaction.js';
import { describeForModal, updateModal } from './submissions/common.js';
import { escapeMrkdwn } from './text/escape.js';
import type { ModalView } from './views/modal.js';
import { settingsEditorModal, settingsLoadingModal, settingsMessageModal } from './views/settings.js';

export interface SettingsTarget {
  deployment: Deployment;
  repo: RepoRef;
  quiet: boolean;
}

/**
 * Opens the settings editor: a "Loading…" modal at once (the trigger_id lasts 3 s and the CI service
 * may be slower), then the editor, or what went wrong, in its place with views.update.
 */
export async function openSettingsEditor(ix: Interaction, target: SettingsTarget): Promise<void> {
  const subject = describeRepoRef(target.repo);
  const action = `edit the settings of ${subject}`;
  const { deployment } = target;
  await actAs(ix, { deployment, action, subject }, async ({ session, account }) => {
    const opened = await ix.client.views.open({
      trigger_id: ix.triggerId ?? '',
      view: settingsLoadingModal(subject),
    });
    const viewId = opened.view?.id;
    if (!viewId) throw new Error('views.open answered without a view id');
    let next: ModalView;
    try {
      const { repo, settings } = await loadRepoSettings(session, target.repo);
      next = settingsEditorModal({
        deployment,
        repoId: repo.id,
        repoSlug: repo.slug,
        webUrl: placeOf(ix, deployment).webUrl,
        settings,
        quiet: target.quiet,
        channelId: ix.channelId,
      });
    } catch (error) {
      const context = {
        deploymentLabel: ix.services.label(deployment),
        action,
        subject,
        login: account.ciLogin,
      };
      next = settingsMessageModal(`:warning: ${escapeMrkdwn(describeForModal(ix.services, error, context))}`);
    }
    await updateModal(ix.services, ix.client, viewId, next);
  });
}
