import type { Build, Commit, Job } from '../ci/schemas.js';
import type { Deployment } from '../config.js';

/**
 * What the watcher (which learns about builds) hands the notifier (which tells Slack). The watcher
 * calls `handle` whenever a build of a watched repository is new or has changed (its state, or any
 * job's state); the notifier is idempotent, so seeing the same build twice is harmless.
 */
export interface BuildUpdate {
  deployment: Deployment;
  repo: { id: number; slug: string };
  build: Build;
  commit: Commit | undefined;
  jobs: Job[];
  /** How the change was learnt, for metrics and logs. */
  source: 'poll' | 'realtime';
}

export interface BuildSink {
  handle(update: BuildUpdate): Promise<void>;
}
