import { setTimeout as delay } from 'node:timers/promises';
import type { App } from '@slack/bolt';
import { z } from 'zod';
import { DEPLOYMENTS } from '../../config.js';
import { parseJsonOrUndefined } from '../../json.js';
import { describeError } from '../../ops/describe-error.js';
import { linkAccount, type TokenInput, TokenRejectedError } from '../../ops/link-account.js';
import type { Services } from '../../services.js';
import type { LinkedAccount } from '../../store/linked-accounts.js';
import { publishHome } from '../home/publish.js';
import { VIEWS } from '../ids.js';
import { checkingModal, LOGIN_BLOCKS, linkedModal, loginModal } from '../views/account.js';
import { inputValue } from '../views/modal.js';

const metadataSchema = z.object({ d: z.enum(DEPLOYMENTS), c: z.string().optional() });

/** Slack closes a submission after 3 s; past this the modal shows "checking" and is updated later. */
const INLINE_CHECK_MS = 2_000;

type Outcome = { ok: true; account: LinkedAccount } | { ok: false; error: unknown };

/**
 * The login modal's submit. The token is checked with the CI service before it is stored. A quick
 * answer is shown inline (field errors, or the modal turns into "Linked as …"); a slow one first
 * turns the modal into "checking…" and updates it when the answer comes.
 */
export function registerLoginSubmission(app: App, services: Services): void {
  app.view(VIEWS.login, async ({ ack, body, view, client }) => {
    const meta = metadataSchema.safeParse(parseJsonOrUndefined(view.private_metadata));
    const ciToken = inputValue(view.state.values, LOGIN_BLOCKS.ciToken);
    const githubToken = inputValue(view.state.values, LOGIN_BLOCKS.githubToken);
    if (!meta.success) {
      await ack({
        response_action: 'errors',
        errors: { [LOGIN_BLOCKS.ciToken]: 'This form expired; run /ci login again.' },
      });
      return;
    }
    if ((ciToken === undefined) === (githubToken === undefined)) {
      const message = 'Paste exactly one: a CI API token or a GitHub token.';
      await ack({
        response_action: 'errors',
        errors: { [LOGIN_BLOCKS.ciToken]: message, [LOGIN_BLOCKS.githubToken]: message },
      });
      return;
    }

    const deployment = meta.data.d;
    const label = services.label(deployment);
    const actor = { teamId: body.team?.id ?? view.team_id, userId: body.user.id };
    const input: TokenInput = ciToken !== undefined ? { ciToken } : { githubToken: githubToken ?? '' };
    const outcome: Promise<Outcome> = linkAccount(services, actor, deployment, input).then(
      (account) => ({ ok: true, account }),
      (error: unknown) => ({ ok: false, error }),
    );
    const quick = await Promise.race([outcome, delay(INLINE_CHECK_MS, undefined)]);

    const form = (problem?: string) =>
      loginModal({
        deployment,
        label,
        webUrl: services.ci.deployment(deployment).webUrl,
        channelId: meta.data.c,
        problem,
      });
    if (quick?.ok) {
      await ack({ response_action: 'update', view: linkedModal(quick.account, label) });
    } else if (quick && quick.error instanceof TokenRejectedError) {
      await ack({ response_action: 'errors', errors: { [blockOf(quick.error)]: quick.error.message } });
    } else if (quick) {
      await ack({
        response_action: 'update',
        view: form(describeError(quick.error, { deploymentLabel: label }).text),
      });
    } else {
      await ack({ response_action: 'update', view: checkingModal(label) });
      const late = await outcome;
      const next = late.ok
        ? linkedModal(late.account, label)
        : form(
            late.error instanceof TokenRejectedError
              ? late.error.message
              : describeError(late.error, { deploymentLabel: label }).text,
          );
      await client.views.update({ view_id: view.id, view: next }).catch((error: unknown) => {
        services.logger.warn({ err: error }, 'could not update the login modal');
      });
    }
    const result = quick ?? (await outcome);
    if (!result.ok && !(result.error instanceof TokenRejectedError)) {
      services.logger.warn({ code: (result.error as { code?: string }).code }, 'linking an account failed');
    }
    if (result.ok) await publishHome(services, client, actor);
  });
}

function blockOf(error: TokenRejectedError): string {
  return error.field === 'githubToken' ? LOGIN_BLOCKS.githubToken : LOGIN_BLOCKS.ciToken;
}
