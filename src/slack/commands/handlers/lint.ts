import { openSession } from '../../../ops/actor.js';
import { lintModal } from '../../views/lint.js';
import type { CommandHandlers } from '../context.js';

/**
 * lint. The lint endpoint needs no token, but every command here acts as a linked user (one rule,
 * one audit trail, and the user's own rate limit at the CI service), so an unlinked user is asked
 * to link before the form opens.
 */
export const lintHandlers = {
  async lint(ctx) {
    await openSession(ctx.services, ctx.actor, ctx.deployment);
    await ctx.client.views.open({ trigger_id: ctx.triggerId ?? '', view: lintModal(ctx.deployment) });
  },
} satisfies Partial<CommandHandlers>;
