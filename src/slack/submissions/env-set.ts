import type { App } from '@slack/bolt';
import { z } from 'zod';
import { ENV_VAR_NAME } from '../../ci/settings.js';
import { DEPLOYMENTS } from '../../config.js';
import { setRepoEnvVar } from '../../ops/env-vars.js';
import type { Services } from '../../services.js';
import { VIEWS } from '../ids.js';
import { fillModal } from '../modal-flow.js';
import { parseRepoRef } from '../refs.js';
import type { SlackMessage } from '../reply.js';
import {
  ENV_SET_BLOCKS,
  ENV_SET_TITLE,
  envSavedModal,
  envSavingModal,
  envSetAnnouncement,
} from '../views/env.js';
import { inputValue } from '../views/modal.js';
import { announceFromModal, fieldErrors, formExpired, formMetadata, submissionInteraction } from './form.js';

const metadataSchema = z.object({
  d: z.enum(DEPLOYMENTS),
  r: z.string().min(1).max(300),
  n: z.string().regex(ENV_VAR_NAME).max(255),
  p: z.boolean(),
  q: z.boolean(),
  c: z.string().optional(),
});

/**
 * The env set modal's submit. The value goes to the CI service and nowhere else: not into a Slack
 * message or view, not into a log line, not into storage. The modal turns into "Saving…" at once and
 * then into the result; the change is announced in the channel unless `--quiet` was given.
 */
export function registerEnvSetSubmission(app: App, services: Services): void {
  app.view(VIEWS.envSet, async ({ ack, body, view, client }) => {
    const meta = formMetadata(body, metadataSchema);
    const repoRef = meta ? parseRepoRef(meta.r) : undefined;
    if (!meta || !repoRef) {
      await ack(fieldErrors({ [ENV_SET_BLOCKS.value]: formExpired('env set') }));
      return;
    }
    const value = inputValue(view.state.values, ENV_SET_BLOCKS.value);
    if (value === undefined) {
      await ack(fieldErrors({ [ENV_SET_BLOCKS.value]: 'Enter a value.' }));
      return;
    }
    const { d: deployment, r: repo, n: name, p: isPublic, q: quiet, c: channelId } = meta;
    await ack({ response_action: 'update', view: envSavingModal(name, repo) });

    const ix = submissionInteraction(services, client, body, channelId);
    const about = { deployment, action: `set ${name} on ${repo}`, subject: repo, isChange: true };
    // With --quiet the modal itself is the private confirmation.
    let announcement: SlackMessage | undefined;
    await fillModal(ix, view.id, { title: ENV_SET_TITLE, about }, async ({ session, site }) => {
      const result = await setRepoEnvVar(session, repoRef, { name, value, public: isPublic });
      const set = { name, public: isPublic, repoSlug: result.repo.slug };
      announcement = envSetAnnouncement(ix.actor.userId, set, site);
      return envSavedModal(set, site);
    });
    if (announcement && !quiet) await announceFromModal(ix, announcement);
  });
}
