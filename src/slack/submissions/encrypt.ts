import type { App } from '@slack/bolt';
import { parseAssignments, plaintextBytes, tooLongText } from '../../ops/encrypt.js';
import { encryptForRepo } from '../../ops/keys.js';
import type { Services } from '../../services.js';
import { VIEWS } from '../ids.js';
import { fillModal } from '../modal-flow.js';
import {
  ENCRYPT_BLOCKS,
  ENCRYPT_TITLE,
  encryptingModal,
  encryptMetadataSchema,
  encryptResultModal,
} from '../views/keys.js';
import { inputValue } from '../views/modal.js';
import { fieldErrors, formExpired, formMetadata, submissionInteraction } from './form.js';

/** Slack shows a field error of about this length; the rest would only be cut. */
const MAX_FIELD_ERROR = 1500;

/**
 * The encrypt form's submit. `NAME=value` lines are checked at once (errors go back to the field),
 * then the modal turns into "Encrypting…" and is filled with the `secure:` snippet. The plain
 * values stay in this function: they are not stored, logged, posted or put back into any view.
 */
export function registerEncryptSubmission(app: App, services: Services): void {
  app.view(VIEWS.encrypt, async ({ ack, body, view, client }) => {
    const meta = formMetadata(body, encryptMetadataSchema);
    if (!meta) {
      await ack(fieldErrors({ [ENCRYPT_BLOCKS.assignments]: formExpired('encrypt') }));
      return;
    }
    const parsed = parseAssignments(inputValue(view.state.values, ENCRYPT_BLOCKS.assignments) ?? '');
    const problems = parsed.ok
      ? parsed.assignments
          .filter((a) => plaintextBytes(a) > meta.m)
          .map((a) => `Line ${a.line}: ${tooLongText(a.name, plaintextBytes(a), meta.m)}`)
      : parsed.problems;
    if (!parsed.ok || problems.length > 0) {
      await ack(fieldErrors({ [ENCRYPT_BLOCKS.assignments]: problems.join(' ').slice(0, MAX_FIELD_ERROR) }));
      return;
    }

    const { d: deployment, s: slug } = meta;
    await ack({ response_action: 'update', view: encryptingModal(slug) });
    const ix = submissionInteraction(services, client, body, undefined);
    const about = { deployment, action: `encrypt values for ${slug}`, subject: slug };
    await fillModal(ix, view.id, { title: ENCRYPT_TITLE, about }, async ({ session }) =>
      encryptResultModal(await encryptForRepo(session, slug, parsed.assignments)),
    );
  });
}
