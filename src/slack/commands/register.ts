import type { App, RespondFn, SlashCommand, webApi } from '@slack/bolt';
import type { Deployment } from '../../config.js';
import { chooseDeployment } from '../../ops/actor.js';
import type { Services } from '../../services.js';
import type { ChannelDefault } from '../../store/channel-defaults.js';
import { StoreUnavailableError } from '../../store/kv.js';
import {
  ackAtOnce,
  afterAck,
  createInteraction,
  guarded,
  type Interaction,
  reportFailure,
} from '../interaction.js';
import { parseRepoRef, type RepoRef } from '../refs.js';
import { createReply } from '../reply.js';
import type { CommandContext, CommandHandler } from './context.js';
import { COMMAND_HANDLERS } from './handlers/index.js';
import { type CommandName, errorText, type ParsedCommand, parseCommand } from './index.js';
import { refusedAsMoved, repoChangedBy } from './read-only.js';

export const SLASH_COMMAND = '/ci';

/**
 * `/ci …`: acknowledged before anything else (Slack waits at most 3 s, and neither the CI service
 * nor Redis may delay it), then parsed and dispatched; every answer goes through response_url.
 */
export function registerSlashCommand(app: App, services: Services): void {
  app.command(SLASH_COMMAND, async ({ ack, command, respond, client }) => {
    await ackAtOnce(services, 'command', ack);
    const busy = createReply({
      respond,
      client,
      userId: command.user_id,
      channelId: command.channel_id,
      logger: services.logger,
    });
    await afterAck(services, busy, () => runCommand(services, command, respond, client));
  });
}

async function runCommand(
  services: Services,
  slash: SlashCommand,
  respond: RespondFn,
  client: webApi.WebClient,
) {
  const ix = createInteraction(services, client, {
    actor: { teamId: slash.team_id, userId: slash.user_id },
    channelId: slash.channel_id,
    triggerId: slash.trigger_id,
    respond,
    logFields: { command: slash.text.split(/\s+/, 1)[0] ?? '' },
  });
  await runCommandText(ix, slash.text);
}

/**
 * Parses and runs `/ci <text>` as the interaction's user: a slash command, or a button that runs
 * one again (on the deployment a repository moved to).
 */
export async function runCommandText(ix: Interaction, text: string): Promise<void> {
  const { services, actor } = ix;
  const fallback = services.config.ci.defaultDeployment;

  let channelDefault: ChannelDefault | undefined;
  let storeError: unknown;
  try {
    channelDefault = ix.channelId
      ? await services.channelDefaults.get(actor.teamId, ix.channelId)
      : undefined;
  } catch (error) {
    storeError = error;
  }

  const parsed = parseCommand(text, {
    channelRepo: channelRepoRef(channelDefault),
    webUrls: webUrls(services),
  });
  if (!parsed.ok) {
    services.metrics.countSlackRequest('command', 'invalid');
    // Without storage the channel's repository is unknown, which may be why the repository is missing.
    if (storeError instanceof StoreUnavailableError && parsed.error.kind === 'usage') {
      await reportFailure(ix, storeError, { deployment: fallback });
      return;
    }
    await ix.reply.privately({ text: errorText(parsed.error) });
    return;
  }

  const command = parsed.command;
  services.metrics.countSlackRequest('command', command.name);
  const named: Deployment | undefined =
    command.deployment ?? (command.usedChannelRepo ? channelDefault?.deployment : undefined);
  await guarded(ix, { deployment: named ?? fallback, action: `run /ci ${command.name}` }, async () => {
    const deployment = await chooseDeployment(services, actor, named);
    const changedRepo = repoChangedBy(command);
    const ctx: CommandContext = {
      ...ix,
      deployment,
      text,
      commandText: text,
      ...(changedRepo ? { changedRepo } : {}),
    };
    await guarded(ctx, { deployment, action: `run /ci ${command.name}` }, async () => {
      if (changedRepo && (await refusedAsMoved(ctx, changedRepo))) return;
      await dispatch(ctx, command);
    });
  });
}

function dispatch(ctx: CommandContext, command: ParsedCommand): Promise<void> {
  // The table has one handler per name; TypeScript cannot follow the union through an index, hence the cast.
  const handler = COMMAND_HANDLERS[command.name] as CommandHandler<CommandName>;
  return handler(ctx, command as never);
}

function channelRepoRef(value: ChannelDefault | undefined): RepoRef | undefined {
  return value ? parseRepoRef(value.repo) : undefined;
}

function webUrls(services: Services): Partial<Record<Deployment, string>> {
  return Object.fromEntries(services.ci.deployments.map((d) => [d.name, d.webUrl]));
}
