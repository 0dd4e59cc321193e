import { setTimeout as delay } from 'node:timers/promises';
import type { App } from '@slack/bolt';
import { z } from 'zod';
import { DEPLOYMENTS } from '../../config.js';
import { describeError, errorCode } from '../../ops/describe-error.js';
import { linkAccount, type TokenInput, TokenRejectedError } from '../../ops/link-account.js';
import type { Services } from '../../services.js';
import type { LinkedAccount } from '../../store/linked-accounts.js';
import { siteOf } from '../deployments.js';
import { publishHome } from '../home/publish.js';
import { VIEWS } from '../ids.js';
import { updateModal } from '../modal-flow.js';
import { checkingModal, LOGIN_BLOCKS, linkedModal, loginModal } from '../views/account.js';
import { inputValue } from '../views/modal.js';
import { fieldErrors, formExpired, formMetadata, submissionInteraction } from './form.js';

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
    const meta = formMetadata(body, metadataSchema);
    const ciToken = inputValue(view.state.values, LOGIN_BLOCKS.ciToken);
    const githubToken = inputValue(view.state.values, LOGIN_BLOCKS.githubToken);
    if (!meta) {
      await ack(fieldErrors({ [LOGIN_BLOCKS.ciToken]: formExpired('login') }));
      return;
    }
    if ((ciToken === undefined) === (githubToken === undefined)) {
      const message = 'Paste exactly one: a CI API token or a GitHub token.';
      await ack(fieldErrors({ [LOGIN_BLOCKS.ciToken]: message, [LOGIN_BLOCKS.githubToken]: message }));
      return;
    }

    const deployment = meta.d;
    const label = services.label(deployment);
    const ix = submissionInteraction(services, client, body, undefined);
    const actor = ix.actor;
    const input: TokenInput = ciToken !== undefined ? { ciToken } : { githubToken: githubToken ?? '' };
    const outcome: Promise<Outcome> = linkAccount(services, actor, deployment, input).then(
      (account) => ({ ok: true, account }),
      (error: unknown) => ({ ok: false, error }),
    );
    const quick = await Promise.race([outcome, delay(INLINE_CHECK_MS, undefined)]);

    const form = (problem?: string) =>
      loginModal({ site: siteOf(services, deployment), channelId: meta.c, problem });
    if (quick?.ok) {
      await ack({ response_action: 'update', view: linkedModal(quick.account, label) });
    } else if (quick && quick.error instanceof TokenRejectedError) {
      await ack(fieldErrors({ [blockOf(quick.error)]: quick.error.message }));
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
      await updateModal(ix, view.id, next);
    }
    const result = quick ?? (await outcome);
    if (!result.ok && !(result.error instanceof TokenRejectedError)) {
      ix.logger.warn({ code: errorCode(result.error) }, 'linking an account failed');
    }
    if (result.ok) await publishHome(services, client, actor);
  });
}

function blockOf(error: TokenRejectedError): string {
  return error.field === 'githubToken' ? LOGIN_BLOCKS.githubToken : LOGIN_BLOCKS.ciToken;
}
