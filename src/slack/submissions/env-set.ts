import type { App } from '@slack/bolt';
import { z } from 'zod';
import { ENV_VAR_NAME } from '../../ci/settings.js';
import { DEPLOYMENTS } from '../../config.js';
import { parseJsonOrUndefined } from '../../json.js';
import { openSession } from '../../ops/actor.js';
import { setRepoEnvVar } from '../../ops/env-vars.js';
import type { Services } from '../../services.js';
import { placeOf } from '../acting.js';
import { VIEWS } from '../ids.js';
import { parseRepoRef } from '../refs.js';
import { escapeMrkdwn, inlineCode } from '../text/escape.js';
import { ENV_SET_BLOCKS, envSetStatusModal, envSetText } from '../views/env.js';
import { mention } from '../views/lines.js';
import { inputValue } from '../views/modal.js';
import { announceFromModal, describeForModal, submissionInteraction, updateModal } from './common.js';

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
    const meta = metadataSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
    const repoRef = meta.success ? parseRepoRef(meta.data.r) : undefined;
    if (!meta.success || !repoRef) {
      await ack({
        response_action: 'errors',
        errors: { [ENV_SET_BLOCKS.value]: 'This form expired; run /ci env set again.' },
      });
      return;
    }
    const value = inputValue(view.state.values, ENV_SET_BLOCKS.value);
    if (value === undefined) {
      await ack({ response_action: 'errors', errors: { [ENV_SET_BLOCKS.value]: 'Enter a value.' } });
      return;
    }
    const { d: deployment, n: name, p: isPublic, q: quiet, c: channelId } = meta.data;
    await ack({
      response_action: 'update',
      view: envSetStatusModal(
        `:hourglass_flowing_sand: Saving ${inlineCode(name)} on *${escapeMrkdwn(meta.data.r)}*…`,
      ),
    });

    const actor = { teamId: body.team?.id ?? view.team_id, userId: body.user.id };
    const ix = submissionInteraction(services, client, actor, channelId, VIEWS.envSet);
    const place = placeOf(ix, deployment);
    let login: string | undefined;
    try {
      const { session, account } = await openSession(services, actor, deployment);
      login = account.ciLogin;
      const result = await setRepoEnvVar(session, repoRef, { name, value, public: isPublic });
      const what = envSetText({ name, public: isPublic, repoSlug: result.repo.slug }, place);
      await updateModal(services, client, view.id, envSetStatusModal(`:white_check_mark: Set ${what}.`));
      // With --quiet the modal itself is the private confirmation.
      if (!quiet) await announceFromModal(ix, { text: `${mention(actor.userId)} set ${what}` });
    } catch (error) {
      const text = describeForModal(services, error, {
        deploymentLabel: place.label,
        action: `set ${name} on ${meta.data.r}`,
        subject: meta.data.r,
        login,
        isChange: true,
      });
      await updateModal(services, client, view.id, envSetStatusModal(`:warning: ${escapeMrkdwn(text)}`));
    }
  });
}
