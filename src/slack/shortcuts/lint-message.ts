import type { App, MessageShortcut } from '@slack/bolt';
import { chooseDeployment, openSession } from '../../ops/actor.js';
import { extractCodeBlock, lintConfiguration } from '../../ops/lint.js';
import type { Services } from '../../services.js';
import { SHORTCUTS } from '../ids.js';
import { guarded, type Interaction } from '../interaction.js';
import { createReply } from '../reply.js';
import { lintResultMessage, noCodeBlockMessage } from '../views/lint.js';

/**
 * Message shortcut "Lint CI config": lints the first code block of the message with the user's
 * own linked account and answers privately through the shortcut's response_url.
 */
export function registerLintShortcut(app: App, services: Services): void {
  app.shortcut<MessageShortcut>(
    { callback_id: SHORTCUTS.lintMessage, type: 'message_action' },
    async ({ ack, shortcut, respond, client }) => {
      const started = performance.now();
      await ack();
      services.metrics.observeAck('shortcut', performance.now() - started);
      services.metrics.countSlackRequest('shortcut', SHORTCUTS.lintMessage);
      const actor = { teamId: shortcut.team?.id ?? shortcut.user.team_id ?? '', userId: shortcut.user.id };
      const ix: Interaction = {
        services,
        client,
        actor,
        channelId: shortcut.channel.id,
        triggerId: shortcut.trigger_id,
        reply: createReply({
          respond,
          client,
          userId: actor.userId,
          channelId: shortcut.channel.id,
          logger: services.logger,
        }),
        logger: services.logger.child({ shortcut: SHORTCUTS.lintMessage, user: actor.userId }),
      };
      const fallback = services.config.ci.defaultDeployment;
      await guarded(ix, { deployment: fallback, action: 'lint that configuration' }, async () => {
        const code = extractCodeBlock(typeof shortcut.message.text === 'string' ? shortcut.message.text : '');
        if (code === undefined) {
          await ix.reply.privately(noCodeBlockMessage());
          return;
        }
        const deployment = await chooseDeployment(services, actor);
        await guarded(ix, { deployment, action: 'lint that configuration' }, async () => {
          const { session } = await openSession(services, actor, deployment);
          await ix.reply.privately(lintResultMessage(await lintConfiguration(session, code)));
        });
      });
    },
  );
}
