import { fetchPublicKey } from '../../../ops/keys.js';
import { describeRepoRef } from '../../../ops/resolve.js';
import { findSshKey } from '../../../ops/ssh-keys.js';
import { actAs } from '../../acting.js';
import { openFilledModal } from '../../modal-flow.js';
import {
  ENCRYPT_TITLE,
  encryptModal,
  publicKeyMessage,
  regenerateKeyOffer,
  SSH_KEY_SET_TITLE,
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
    await actAs(ctx, { deployment: ctx.deployment, action, subject }, async ({ session, site }) => {
      const key = await fetchPublicKey(session, command.repo);
      await ctx.reply.privately(
        command.regenerate
          ? regenerateKeyOffer({ site, slug: key.slug, fingerprint: key.fingerprint, quiet: command.quiet })
          : publicKeyMessage(key, site),
      );
    });
  },

  async encrypt(ctx, command) {
    const subject = describeRepoRef(command.repo);
    const fill = {
      title: ENCRYPT_TITLE,
      waiting: `Looking up the public key of ${subject}`,
      about: { deployment: ctx.deployment, action: `encrypt values for ${subject}`, subject },
    };
    await openFilledModal(ctx, fill, async ({ session }) =>
      encryptModal(await fetchPublicKey(session, command.repo), ctx.deployment),
    );
  },

  async sshkey(ctx, command) {
    const subject = describeRepoRef(command.repo);
    if (command.sub === 'set') {
      const fill = {
        title: SSH_KEY_SET_TITLE,
        waiting: `Looking up ${subject}`,
        about: { deployment: ctx.deployment, action: `set the SSH key of ${subject}`, subject },
      };
      await openFilledModal(ctx, fill, async ({ session }) => {
        const { repo, key } = await findSshKey(session, command.repo);
        return sshKeySetModal({
          deployment: ctx.deployment,
          repo,
          current: key,
          channelId: ctx.channelId,
          quiet: command.quiet,
        });
      });
      return;
    }
    const action =
      command.sub === 'delete' ? `delete the SSH key of ${subject}` : `read the SSH key of ${subject}`;
    await actAs(ctx, { deployment: ctx.deployment, action, subject }, async ({ session, site }) => {
      const { repo, key } = await findSshKey(session, command.repo);
      if (command.sub === 'delete' && key) {
        await ctx.reply.privately(sshKeyDeleteOffer(repo, key, site, { quiet: command.quiet }));
      } else {
        await ctx.reply.privately(sshKeyMessage(repo, key, site));
      }
    });
  },
} satisfies Partial<CommandHandlers>;
