import type { Deployment } from '../config.js';
import type { RepoRef } from '../ops/references.js';
import { describeRepoRef } from '../ops/resolve.js';
import { loadRepoSettings } from '../ops/settings.js';
import type { Interaction } from './interaction.js';
import { openFilledModal } from './modal-flow.js';
import { SETTINGS_TITLE, settingsEditorModal } from './views/settings.js';

export interface SettingsTarget {
  deployment: Deployment;
  repo: RepoRef;
  quiet: boolean;
}

/** Opens the settings editor (from `/ci settings` and the Settings button) as the acting user. */
export async function openSettingsEditor(ix: Interaction, target: SettingsTarget): Promise<void> {
  const subject = describeRepoRef(target.repo);
  const about = { deployment: target.deployment, action: `edit the settings of ${subject}`, subject };
  const fill = { title: SETTINGS_TITLE, waiting: `Loading the settings of ${subject}`, about };
  await openFilledModal(ix, fill, async ({ session, site }) => {
    const { repo, settings } = await loadRepoSettings(session, target.repo);
    return settingsEditorModal({
      site,
      repoId: repo.id,
      repoSlug: repo.slug,
      settings,
      quiet: target.quiet,
      channelId: ix.channelId,
    });
  });
}
