import type { ViewErrorsResponseAction, webApi } from '@slack/bolt';
import type { z } from 'zod';
import { parseJsonOrUndefined } from '../../json.js';
import type { Services } from '../../services.js';
import { createInteraction, type Interaction } from '../interaction.js';
import type { SlackMessage } from '../reply.js';

/** What the modal submission handlers share: who submitted, the form's metadata, field errors. */

/** The parts of a view submission that say who submitted which form. */
export interface Submission {
  team: { id: string } | null;
  user: { id: string };
  view: { team_id: string; callback_id: string; private_metadata: string };
}

/**
 * The interaction behind a submission: who submitted, and the channel the modal was opened from
 * (kept in its private_metadata), where announcements go. There is no response_url.
 */
export function submissionInteraction(
  services: Services,
  client: webApi.WebClient,
  body: Submission,
  channelId: string | undefined,
): Interaction {
  return createInteraction(services, client, {
    actor: { teamId: body.team?.id ?? body.view.team_id, userId: body.user.id },
    channelId,
    triggerId: undefined,
    respond: undefined,
    logFields: { view: body.view.callback_id },
  });
}

/** The form's private_metadata as `schema` reads it; undefined when it is not what we wrote. */
export function formMetadata<S extends z.ZodType>(body: Submission, schema: S): z.output<S> | undefined {
  const parsed = schema.safeParse(parseJsonOrUndefined(body.view.private_metadata));
  return parsed.success ? parsed.data : undefined;
}

/** The ack that keeps the form open and shows each message under its input block. */
export function fieldErrors(errors: Record<string, string>): ViewErrorsResponseAction {
  return { response_action: 'errors', errors };
}

/** For a form whose metadata cannot be read: an old or altered one. */
export function formExpired(command: string): string {
  return `This form expired; run /ci ${command} again.`;
}

/** The change is made and the modal says so; a failed announcement is only logged. */
export async function announceFromModal(ix: Interaction, message: SlackMessage): Promise<void> {
  await ix.reply.publicly(message).catch((error: unknown) => {
    ix.logger.warn({ err: error }, 'could not announce a change in the channel');
  });
}
