import type { Services } from './services.js';

/** Work the app does on its own, beside answering Slack: today, continuing followed logs. */
export interface Background {
  /** Stops it (before the outbox drains), leaving follows for another replica or the next start. */
  stop(): Promise<void>;
}

export async function startBackground(services: Services): Promise<Background> {
  // Follows whose process died (or restarted) are picked up again, REST catch-up first.
  await services.follower.start();
  return { stop: () => services.follower.stop() };
}
