import type { App } from '@slack/bolt';
import { deleteRepoCaches } from '../../ops/caches.js';
import { unsetRepoEnvVar } from '../../ops/env-vars.js';
import type { Services } from '../../services.js';
import { actAs, announceChange } from '../acting.js';
import { ACTIONS } from '../ids.js';
import { parseRepoRef } from '../refs.js';
import { openSettingsEditor } from '../settings-editor.js';
import { cachesDeletedAnnouncement, cachesDeletedConfirmation } from '../views/caches.js';
import { envUnsetAnnouncement, envUnsetConfirmation } from '../views/env.js';
import { onAction } from './on-action.js';

/**
 * Unset (env var), Delete (caches) and Settings buttons. Each acts as the person who clicks, with
 * their own linked account; the confirmation dialogs are on the buttons themselves.
 */
export function registerRepoActions(app: App, services: Services): void {
  onAction(
    app,
    services,
    ACTIONS.deleteEnvVar,
    (v) => ({
      deployment: v.d,
      action: `unset ${v.name} on ${v.repo}`,
      subject: `${v.name} on ${v.repo}`,
      isChange: true,
    }),
    async (ctx, v, about) => {
      await actAs(ctx, about, async ({ session, site }) => {
        await unsetRepoEnvVar(session, v.repoId, v.envId);
        await announceChange(ctx, v.q === true, {
          announcement: envUnsetAnnouncement(ctx.actor.userId, v.repo, v.name, site),
          confirmation: envUnsetConfirmation(v.repo, v.name, site),
        });
      });
    },
  );

  onAction(
    app,
    services,
    ACTIONS.deleteCaches,
    (v) => ({ deployment: v.d, action: `delete the caches of ${v.repo}`, subject: v.repo, isChange: true }),
    async (ctx, v, about) => {
      const filter = { branch: v.branch, match: v.match };
      await actAs(ctx, about, async ({ session, site }) => {
        const repo = parseRepoRef(v.repo);
        const key = repo?.kind === 'id' ? repo.id : v.repo;
        const { deleted } = await deleteRepoCaches(session, key, filter);
        await announceChange(ctx, v.q === true, {
          announcement: cachesDeletedAnnouncement(ctx.actor.userId, v.repo, deleted, filter, site),
          confirmation: cachesDeletedConfirmation(v.repo, deleted, filter, site),
        });
      });
    },
  );

  onAction(
    app,
    services,
    ACTIONS.openSettings,
    (v) => ({ deployment: v.d, action: `edit the settings of ${v.repo}` }),
    async (ctx, v) => {
      const repo = parseRepoRef(v.repo) ?? { kind: 'id' as const, id: v.repoId };
      await openSettingsEditor(ctx, { deployment: v.d, repo, quiet: false });
    },
  );
}
