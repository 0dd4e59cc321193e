import { createNotifier } from './notify/notifier.js';
import { createWatcher } from './notify/watcher.js';
import type { Services } from './services.js';

export interface Background {
  stop(): Promise<void>;
}

/**
 * What every app process runs besides answering Slack: the build watcher (its share of the
 * subscribed repositories, leased in Redis) feeding the notifier (channel messages and DMs).
 */
export async function startBackground(services: Services): Promise<Background> {
  const notifier = createNotifier(services);
  const watcher = createWatcher(services, notifier);
  await watcher.start();
  return {
    async stop() {
      // The watcher first, so its leases move to another replica at once; then the notifier's retries.
      await watcher.stop();
      await notifier.close();
    },
  };
}
