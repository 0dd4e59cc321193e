import { escapeMrkdwn, inlineCode } from '../../slack/text/escape.js';
import type { Subscription } from '../../store/subscriptions.js';

export type PauseReason = 'token_rejected' | 'no_access' | 'not_linked';

/**
 * The one message a channel gets when its subscription pauses because the creator's token can no
 * longer watch it. `label` is the deployment's name as users know it (travis-ci.com).
 */
export function pauseNoticeText(sub: Subscription, reason: PauseReason, label: string): string {
  const target = sub.target.kind === 'repo' ? sub.target.slug : `${sub.target.owner}/*`;
  const creator = `<@${sub.createdBy}>`;
  const where = escapeMrkdwn(label);
  const why =
    reason === 'token_rejected'
      ? `${creator}'s ${where} token no longer works`
      : reason === 'no_access'
        ? `${creator}'s ${where} account can no longer see it`
        : `${creator} no longer has a linked ${where} account`;
  return `I paused the subscription to ${escapeMrkdwn(target)}: ${why}. Anyone with access can ${inlineCode(`/ci subscribe ${target}`)} again.`;
}
