import { createNotifier } from './notify/notifier.js';
import { createWatcher } from './notify/watcher.js';
import type { Services } from './services.js';

export interface Background {
  /** Stops it (before the outbox drains), leaving leased work to another replica or the next start. */
  stop(): Promise<void>;
}

/**
 * What every app process runs besides answering Slack: the build watcher (its share of the
 * subscribed repositories, leased in Redis) feeding the notifier (channel messages and DMs), the
 * live log follows, and the migration batches (each driven by one process under a lease).
 */
export async function startBackground(services: Services): Promise<Background> {
  const notifier = createNotifier(services);
  const watcher = createWatcher(services, notifier);
  await watcher.start();
  // Follows and migration batches a stopped process left open are picked up again.
  await services.follower.start();
  await services.migrations.start();
  return {
    async stop() {
      // Leased work first, so it moves to another replica at once; then the notifier's retries.
      // Followed logs stop without a final edit: another replica (or the next start) continues them.
      await watcher.stop();
      await services.follower.stop();
      await services.migrations.stop();
      await notifier.close();
    },
  };
}
