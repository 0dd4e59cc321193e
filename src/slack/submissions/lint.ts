import type { App } from '@slack/bolt';
import { lintConfiguration } from '../../ops/lint.js';
import type { Services } from '../../services.js';
import { VIEWS } from '../ids.js';
import { fillModal } from '../modal-flow.js';
import {
  LINT_BLOCKS,
  LINT_RESULT_TITLE,
  lintingModal,
  lintMetadataSchema,
  lintResultModal,
} from '../views/lint.js';
import { inputValue } from '../views/modal.js';
import { fieldErrors, formExpired, formMetadata, submissionInteraction } from './form.js';

/** The lint form's submit: "Checking…" at once, then the warnings (or "No warnings") in the modal. */
export function registerLintSubmission(app: App, services: Services): void {
  app.view(VIEWS.lint, async ({ ack, body, view, client }) => {
    const meta = formMetadata(body, lintMetadataSchema);
    const content = inputValue(view.state.values, LINT_BLOCKS.config);
    if (!meta || content === undefined) {
      const problem = meta ? 'Paste the configuration file to check.' : formExpired('lint');
      await ack(fieldErrors({ [LINT_BLOCKS.config]: problem }));
      return;
    }
    await ack({ response_action: 'update', view: lintingModal() });
    const ix = submissionInteraction(services, client, body, undefined);
    const about = { deployment: meta.d, action: 'lint your configuration' };
    await fillModal(ix, view.id, { title: LINT_RESULT_TITLE, about }, async ({ session }) =>
      lintResultModal(await lintConfiguration(session, content)),
    );
  });
}
