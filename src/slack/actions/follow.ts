import type { App } from '@slack/bolt';
import type { Services } from '../../services.js';
import { followLog } from '../follow-flow.js';
import { ACTIONS } from '../ids.js';
import { onAction } from './on-action.js';

/** The Follow button of running jobs (build card, job card): follows as the person who clicked. */
export function registerFollowActions(app: App, services: Services): void {
  onAction(
    app,
    services,
    ACTIONS.followLog,
    (v) => ({ deployment: v.d, action: `follow the log of job ${v.id}` }),
    (ctx, v) => followLog(ctx, v.d, { kind: 'id', id: v.id }),
  );
}
