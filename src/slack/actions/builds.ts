import type { App } from '@slack/bolt';
import { DEFAULT_LOG_LINES } from '../../ops/logs.js';
import type { BuildOrJobRef } from '../../ops/references.js';
import type { Services } from '../../services.js';
import { control, showBuild, showBuilds, showLog } from '../build-flows.js';
import { ACTIONS } from '../ids.js';
import { parseRepoRef } from '../refs.js';
import { STALE_BUTTON_MESSAGE } from '../views/errors.js';
import { onAction } from './on-action.js';

/**
 * Buttons and menus of build lists, build cards, job cards and App Home. Each acts as the person
 * who clicked, with their own linked account (openSession in build-flows), never as whoever posted
 * the message.
 */
export function registerBuildActions(app: App, services: Services): void {
  onAction(
    app,
    services,
    ACTIONS.showBuild,
    (v) => ({ deployment: v.d, action: `see build ${v.id}` }),
    (ctx, v) => showBuild(ctx, v.d, { kind: 'id', id: v.id }),
  );

  onAction(
    app,
    services,
    ACTIONS.olderBuilds,
    (v) => ({ deployment: v.d, action: `list the builds of ${v.repo}` }),
    async (ctx, v) => {
      const repo = parseRepoRef(v.repo);
      if (!repo) {
        await ctx.reply.privately(STALE_BUTTON_MESSAGE);
        return;
      }
      const event = v.event === 'push' || v.event === 'pull_request' ? v.event : undefined;
      await showBuilds(ctx, v.d, {
        repo,
        filters: { branch: v.branch, event },
        afterNumber: v.after,
        replace: true,
      });
    },
  );

  for (const [action, verb, type] of [
    [ACTIONS.restartBuild, 'restart', 'build'],
    [ACTIONS.cancelBuild, 'cancel', 'build'],
    [ACTIONS.restartJob, 'restart', 'job'],
    [ACTIONS.cancelJob, 'cancel', 'job'],
  ] as const) {
    onAction(
      app,
      services,
      action,
      (v) => ({ deployment: v.d, action: `${verb} ${type} ${v.id}`, isChange: true }),
      (ctx, v) => control(ctx, v.d, verb, idRef(type, v.id)),
    );
  }

  onAction(
    app,
    services,
    ACTIONS.showLog,
    (v) => ({ deployment: v.d, action: `read the log of job ${v.id}` }),
    (ctx, v) => showLog(ctx, v.d, { kind: 'id', id: v.id }, DEFAULT_LOG_LINES),
  );
}

function idRef(type: 'build' | 'job', id: number): BuildOrJobRef {
  return type === 'build' ? { type, ref: { kind: 'id', id } } : { type, ref: { kind: 'id', id } };
}
