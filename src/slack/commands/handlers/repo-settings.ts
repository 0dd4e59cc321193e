import { listRepoCaches } from '../../../ops/caches.js';
import { findRepoEnvVar, listRepoEnvVars } from '../../../ops/env-vars.js';
import { describeRepoRef } from '../../../ops/resolve.js';
import { actAs } from '../../acting.js';
import { openSettingsEditor } from '../../settings-editor.js';
import { cachesDeletePrompt, cachesMessage } from '../../views/caches.js';
import { envListMessage, envSetModal, envUnsetPrompt } from '../../views/env.js';
import type { CommandContext, CommandHandlers } from '../context.js';
import type { ParsedCommandOf } from '../index.js';

/** env (list, set, unset), settings, caches (list, delete) */
export const repoSettingsHandlers = {
  async env(ctx, command) {
    switch (command.sub) {
      case 'list':
        return listEnv(ctx, command);
      case 'set':
        return askEnvValue(ctx, command);
      case 'unset':
        return confirmEnvUnset(ctx, command);
    }
  },

  async settings(ctx, command) {
    await openSettingsEditor(ctx, { deployment: ctx.deployment, repo: command.repo, quiet: command.quiet });
  },

  async caches(ctx, command) {
    const subject = describeRepoRef(command.repo);
    const filter = { branch: command.branch, match: command.match };
    const deleting = command.sub === 'delete';
    const action = deleting ? `delete the caches of ${subject}` : `list the caches of ${subject}`;
    await actAs(ctx, { deployment: ctx.deployment, action, subject }, async ({ session, site }) => {
      const list = await listRepoCaches(session, command.repo, filter);
      await ctx.reply.privately(
        deleting
          ? cachesDeletePrompt(list, filter, site, { quiet: command.quiet })
          : cachesMessage(list, filter, site, ctx.services.clock()),
      );
    });
  },
} satisfies Partial<CommandHandlers>;

type EnvCommand<S extends string> = Extract<ParsedCommandOf<'env'>, { sub: S }>;

async function listEnv(ctx: CommandContext, command: EnvCommand<'list'>): Promise<void> {
  const subject = describeRepoRef(command.repo);
  const about = {
    deployment: ctx.deployment,
    action: `list the environment variables of ${subject}`,
    subject,
  };
  await actAs(ctx, about, async ({ session, site }) => {
    const { repo, vars } = await listRepoEnvVars(session, command.repo);
    await ctx.reply.privately(envListMessage(repo, vars, site));
  });
}

/**
 * Opens the modal that asks for the value. Only the link is checked first (no CI call): the
 * trigger_id expires after 3 s. The repository and the name are checked when the value comes.
 */
async function askEnvValue(ctx: CommandContext, command: EnvCommand<'set'>): Promise<void> {
  const subject = describeRepoRef(command.repo);
  const about = { deployment: ctx.deployment, action: `set ${command.variable} on ${subject}`, subject };
  await actAs(ctx, about, async ({ site }) => {
    await ctx.client.views.open({
      trigger_id: ctx.triggerId ?? '',
      view: envSetModal({
        site,
        repo: command.repo.kind === 'slug' ? command.repo.slug : String(command.repo.id),
        name: command.variable,
        public: command.public,
        quiet: command.quiet,
        channelId: ctx.channelId,
      }),
    });
  });
}

/** Asks privately first; the Delete button (with its own confirmation dialog) does the deleting. */
async function confirmEnvUnset(ctx: CommandContext, command: EnvCommand<'unset'>): Promise<void> {
  const subject = describeRepoRef(command.repo);
  const about = { deployment: ctx.deployment, action: `unset ${command.variable} on ${subject}`, subject };
  await actAs(ctx, about, async ({ session, site }) => {
    const { repo, envVar } = await findRepoEnvVar(session, command.repo, command.variable);
    await ctx.reply.privately(envUnsetPrompt(repo, envVar, site, { quiet: command.quiet }));
  });
}
