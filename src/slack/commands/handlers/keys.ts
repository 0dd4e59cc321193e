import { openSession } from '../../../ops/actor.js';
import { fetchPublicKey } from '../../../ops/keys.js';
import { describeRepoRef } from '../../../ops/resolve.js';
import { findSshKey } from '../../../ops/ssh-keys.js';
import { actAs } from '../../act-as.js';
import { openFilledModal } from '../../modal-flow.js';
import {
  encryptModal,
  publicKeyMessage,
  regenerateKeyOffer,
  sshKeyDeleteOffer,
  sshKeyMessage,
  sshKeySetModal,
} from '../../views/keys.js';
import type { CommandHandlers } from '../context.js';

/** pubkey, encrypt, sshkey */
export const keyHandlers = {
  async pubkey(ctx, command) {
    const subject = describeRepoRef(command.repo);
    const action = command.regenerate
      ? `regenerate the key of ${subject}`
      : `read the public key of ${subject}`;
    await actAs(ctx, ctx.deployment, { action, subject }, async ({ session, webUrl }) => {
      const key = await fetchPublicKey(session, command.repo);
      await ctx.reply.privately(
        command.regenerate
          ? regenerateKeyOffer({
              deployment: ctx.deployment,
              slug: key.slug,
              webUrl,
              fingerprint: key.fingerprint,
              quiet: command.quiet,
            })
          : publicKeyMessage(key, webUrl),
      );
    });
  },

  async encrypt(ctx, command) {
    const subject = describeRepoRef(command.repo);
    const { session, account } = await openSession(ctx.services, ctx.actor, ctx.deployment);
    await openFilledModal(
      ctx,
      {
        title: 'Encrypt values',
        waiting: `Looking up the public key of ${subject}`,
        failure: {
          deployment: ctx.deployment,
          action: `encrypt values for ${subject}`,
          subject,
          login: account.ciLogin,
        },
      },
      async () => encryptModal(await fetchPublicKey(session, command.repo), ctx.deployment),
    );
  },

  async sshkey(ctx, command) {
    const subject = describeRepoRef(command.repo);
    if (command.sub === 'set') {
      const { session, account } = await openSession(ctx.services, ctx.actor, ctx.deployment);
      await openFilledModal(
        ctx,
        {
          title: 'Set SSH key',
          waiting: `Looking up ${subject}`,
          failure: {
            deployment: ctx.deployment,
            action: `set the SSH key of ${subject}`,
            subject,
            login: account.ciLogin,
          },
        },
        async () => {
          const state = await findSshKey(session, command.repo);
          return sshKeySetModal({
            deployment: ctx.deployment,
            repo: state.repo,
            current: state.key,
            channelId: ctx.channelId,
            quiet: command.quiet,
          });
        },
      );
      return;
    }
    const action =
      command.sub === 'delete' ? `delete the SSH key of ${subject}` : `read the SSH key of ${subject}`;
    await actAs(ctx, ctx.deployment, { action, subject }, async ({ session, webUrl }) => {
      const { repo, key } = await findSshKey(session, command.repo);
      if (command.sub === 'delete' && key) {
        await ctx.reply.privately(
          sshKeyDeleteOffer(repo, key, { deployment: ctx.deployment, webUrl, quiet: command.quiet }),
        );
      } else {
        await ctx.reply.privately(sshKeyMessage(repo, key, webUrl));
      }
    });
  },
} satisfies Partial<CommandHandlers>;
