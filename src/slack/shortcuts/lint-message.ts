import type { App, MessageShortcut } from '@slack/bolt';
import { chooseDeployment } from '../../ops/actor.js';
import { extractCodeBlock, lintConfiguration } from '../../ops/lint.js';
import type { Services } from '../../services.js';
import { actAs } from '../acting.js';
import { SHORTCUTS } from '../ids.js';
import { ackAtOnce, createInteraction, guarded } from '../interaction.js';
import { lintResultMessage, noCodeBlockMessage } from '../views/lint.js';

/**
 * Message shortcut "Lint CI config": lints the first code block of the message with the user's
 * own linked account and answers privately through the shortcut's response_url.
 */
export function registerLintShortcut(app: App, services: Services): void {
  app.shortcut<MessageShortcut>(
    { callback_id: SHORTCUTS.lintMessage, type: 'message_action' },
    async ({ ack, shortcut, respond, client }) => {
      await ackAtOnce(services, 'shortcut', ack);
      services.metrics.countSlackRequest('shortcut', SHORTCUTS.lintMessage);
      const actor = { teamId: shortcut.team?.id ?? shortcut.user.team_id ?? '', userId: shortcut.user.id };
      const ix = createInteraction(services, client, {
        actor,
        channelId: shortcut.channel.id,
        triggerId: shortcut.trigger_id,
        respond,
        logFields: { shortcut: SHORTCUTS.lintMessage },
      });
      const action = 'lint that configuration';
      await guarded(ix, { deployment: services.config.ci.defaultDeployment, action }, async () => {
        const code = extractCodeBlock(typeof shortcut.message.text === 'string' ? shortcut.message.text : '');
        if (code === undefined) {
          await ix.reply.privately(noCodeBlockMessage());
          return;
        }
        const deployment = await chooseDeployment(services, actor);
        await actAs(ix, { deployment, action }, async ({ session }) => {
          await ix.reply.privately(lintResultMessage(await lintConfiguration(session, code)));
        });
      });
    },
  );
}
