import { createNotifier } from './notify/notifier.js';
import { createWatcher } from './notify/watcher.js';
import type { Services } from './services.js';

export interface Background {
  stop(): Promise<void>;
}

/**
 * What every app process runs besides answering Slack: the build watcher (its share of the
 * subscribed repositories, leased in Redis) feeding the notifier (channel messages and DMs), and
 * the migration batches (each driven by one process under a lease).
 */
export async function startBackground(services: Services): Promise<Background> {
  const notifier = createNotifier(services);
  const watcher = createWatcher(services, notifier);
  await watcher.start();
  // Migration batches a stopped process left open are picked up again.
  await services.migrations.start();
  return {
    async stop() {
      // The watcher first, so its leases move to another replica at once; then the notifier's retries.
      await watcher.stop();
      await services.migrations.stop();
      await notifier.close();
    },
  };
}
