import type { App } from '@slack/bolt';
import { parseJsonOrUndefined } from '../../json.js';
import { openSession } from '../../ops/actor.js';
import { parseAssignments, plaintextBytes, tooLongText } from '../../ops/encrypt.js';
import { encryptForRepo } from '../../ops/keys.js';
import type { Services } from '../../services.js';
import { VIEWS } from '../ids.js';
import { fillModal, submissionInteraction } from '../modal-flow.js';
import { ENCRYPT_BLOCKS, encryptingModal, encryptMetadataSchema, encryptResultModal } from '../views/keys.js';
import { inputValue } from '../views/modal.js';

/** Slack shows a field error of about this length; the rest would only be cut. */
const MAX_FIELD_ERROR = 1500;

/**
 * The encrypt form's submit. `NAME=value` lines are checked at once (errors go back to the field),
 * then the modal turns into "Encrypting…" and is filled with the `secure:` snippet. The plain
 * values stay in this function: they are not stored, logged, posted or put back into any view.
 */
export function registerEncryptSubmission(app: App, services: Services): void {
  app.view(VIEWS.encrypt, async ({ ack, body, view, client }) => {
    const meta = encryptMetadataSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
    if (!meta.success) {
      await ack({
        response_action: 'errors',
        errors: { [ENCRYPT_BLOCKS.assignments]: 'This form expired; run /ci encrypt again.' },
      });
      return;
    }
    const parsed = parseAssignments(inputValue(view.state.values, ENCRYPT_BLOCKS.assignments) ?? '');
    const problems = parsed.ok
      ? parsed.assignments
          .filter((a) => plaintextBytes(a) > meta.data.m)
          .map((a) => `Line ${a.line}: ${tooLongText(a.name, plaintextBytes(a), meta.data.m)}`)
      : parsed.problems;
    if (!parsed.ok || problems.length > 0) {
      await ack({
        response_action: 'errors',
        errors: { [ENCRYPT_BLOCKS.assignments]: problems.join(' ').slice(0, MAX_FIELD_ERROR) },
      });
      return;
    }

    const { d: deployment, s: slug } = meta.data;
    await ack({ response_action: 'update', view: encryptingModal(slug) });
    const submitter = { teamId: body.team?.id ?? view.team_id, userId: body.user.id };
    const ix = submissionInteraction(services, client, submitter, undefined, VIEWS.encrypt);
    const failure = { deployment, action: `encrypt values for ${slug}`, subject: slug };
    await fillModal(ix, view.id, { title: 'Encrypt values', failure }, async () => {
      const { session } = await openSession(services, submitter, deployment);
      return encryptResultModal(await encryptForRepo(session, slug, parsed.assignments));
    });
  });
}
