import type { App, BlockAction, BlockElementAction, RespondFn, webApi } from '@slack/bolt';
import type { Services } from '../../services.js';
import { type ActionSpec, type ActionValue, decodeValue } from '../ids.js';
import {
  ackAtOnce,
  afterAck,
  createInteraction,
  type FailureContext,
  guarded,
  type Interaction,
} from '../interaction.js';
import { STALE_BUTTON_MESSAGE } from '../views/errors.js';

export interface ActionContext extends Interaction {
  /** The message the button sits in, when it sits in one. */
  message: { channel: string; ts: string } | undefined;
  /** The view the button sits in (App Home, a modal), when it sits in one. */
  viewId: string | undefined;
}

/** `about` is what `describe` made of the value: what the click asks for, for error sentences. */
export type ActionHandler<A extends ActionSpec> = (
  ctx: ActionContext,
  value: ActionValue<A>,
  about: FailureContext,
) => Promise<void>;

/** `build.restart` and `build.restart:<suffix>` (several buttons of one action in one message). */
function matcher(action: ActionSpec): RegExp {
  return new RegExp(`^${action.id.replace(/\./g, '\\.')}(:.*)?$`);
}

/**
 * Registers a button handler: acknowledged at once, the value decoded and checked, then the
 * handler runs as the person who clicked (their own linked account), with failures turned into a
 * private message to them.
 */
export function onAction<A extends ActionSpec>(
  app: App,
  services: Services,
  action: A,
  describe: (value: ActionValue<A>) => FailureContext,
  handler: ActionHandler<A>,
): void {
  app.action<BlockAction<BlockElementAction>>(
    matcher(action),
    async ({ ack, body, action: element, respond, client }) => {
      await ackAtOnce(services, 'action', ack);
      services.metrics.countSlackRequest('action', action.id);
      const ctx = actionContext(services, body, respond, client);
      const value = decodeValue(action, rawValue(element));
      if (!value) {
        await ctx.reply.privately(STALE_BUTTON_MESSAGE);
        return;
      }
      const about = describe(value);
      await afterAck(services, ctx.reply, () => guarded(ctx, about, () => handler(ctx, value, about)));
    },
  );
}

/** A button carries its value; a select menu carries the value of the option that was picked. */
function rawValue(element: BlockElementAction): string | undefined {
  if ('value' in element) return element.value;
  if ('selected_option' in element) return element.selected_option?.value;
  return undefined;
}

function actionContext(
  services: Services,
  body: BlockAction<BlockElementAction>,
  respond: RespondFn,
  client: webApi.WebClient,
): ActionContext {
  const channelId = body.channel?.id ?? body.container?.channel_id;
  const messageTs = body.message?.ts ?? body.container?.message_ts;
  const teamId = body.team?.id ?? body.user.team_id ?? '';
  const ix = createInteraction(services, client, {
    actor: { teamId, userId: body.user.id },
    channelId,
    triggerId: body.trigger_id,
    // In App Home and modals there is no message to answer under.
    respond: body.response_url ? respond : undefined,
    logFields: { action: body.actions[0]?.action_id },
  });
  return {
    ...ix,
    message: channelId && messageTs ? { channel: channelId, ts: messageTs } : undefined,
    viewId: body.view?.id,
  };
}
