import type { App } from '@slack/bolt';
import { parseJsonOrUndefined } from '../../json.js';
import { openSession } from '../../ops/actor.js';
import { lintConfiguration } from '../../ops/lint.js';
import type { Services } from '../../services.js';
import { VIEWS } from '../ids.js';
import { fillModal, submissionInteraction } from '../modal-flow.js';
import { LINT_BLOCKS, lintingModal, lintMetadataSchema, lintResultModal } from '../views/lint.js';
import { inputValue } from '../views/modal.js';

/** The lint form's submit: "Checking…" at once, then the warnings (or "No warnings") in the modal. */
export function registerLintSubmission(app: App, services: Services): void {
  app.view(VIEWS.lint, async ({ ack, body, view, client }) => {
    const meta = lintMetadataSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
    const content = inputValue(view.state.values, LINT_BLOCKS.config);
    if (!meta.success || content === undefined) {
      await ack({
        response_action: 'errors',
        errors: {
          [LINT_BLOCKS.config]: meta.success
            ? 'Paste the configuration file to check.'
            : 'This form expired; run /ci lint again.',
        },
      });
      return;
    }
    await ack({ response_action: 'update', view: lintingModal() });
    const deployment = meta.data.d;
    const submitter = { teamId: body.team?.id ?? view.team_id, userId: body.user.id };
    const ix = submissionInteraction(services, client, submitter, undefined, VIEWS.lint);
    const failure = { deployment, action: 'lint your configuration' };
    await fillModal(ix, view.id, { title: 'Lint result', failure }, async () => {
      const { session } = await openSession(services, submitter, deployment);
      return lintResultModal(await lintConfiguration(session, content));
    });
  });
}
