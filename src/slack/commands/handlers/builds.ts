import { control, showBuild, showBuilds, showJobs, showLog, showStatus } from '../../build-flows.js';
import { followLog, unfollowLog } from '../../follow-flow.js';
import type { CommandHandlers } from '../context.js';

/** status, builds (history), build (show), jobs, restart, cancel, logs */
export const buildHandlers = {
  async status(ctx, command) {
    await showStatus(ctx, ctx.deployment, command.repo);
  },

  async builds(ctx, command) {
    const event = command.pr ? 'pull_request' : command.push ? 'push' : undefined;
    await showBuilds(ctx, ctx.deployment, { repo: command.repo, filters: { branch: command.branch, event } });
  },

  async build(ctx, command) {
    await showBuild(ctx, ctx.deployment, command.build);
  },

  async jobs(ctx, command) {
    // The parser lets exactly one of the two through.
    const filter = command.state !== undefined ? { state: command.state } : { queue: command.queue ?? '' };
    await showJobs(ctx, ctx.deployment, filter);
  },

  async restart(ctx, command) {
    await control(ctx, ctx.deployment, 'restart', command.target, { quiet: command.quiet });
  },

  async cancel(ctx, command) {
    await control(ctx, ctx.deployment, 'cancel', command.target, { quiet: command.quiet });
  },

  async logs(ctx, command) {
    if (command.follow) await followLog(ctx, ctx.deployment, command.job);
    else if (command.stop) await unfollowLog(ctx, ctx.deployment, command.job);
    else await showLog(ctx, ctx.deployment, command.job, command.lines);
  },
} satisfies Partial<CommandHandlers>;
