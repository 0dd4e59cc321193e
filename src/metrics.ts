import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { AttemptInfo } from './ci/client.js';

/** Prometheus metrics served on GET /metrics. One registry per app instance (tests build several). */
export interface Metrics {
  registry: Registry;
  observeCiAttempt(info: AttemptInfo): void;
  countSlackRequest(kind: string, name: string): void;
  observeAck(kind: string, ms: number): void;
  /** Build watcher: a CI request it sent, by purpose (`poll`, `realtime_resolve`, `owner_refresh`, `identity`). */
  countWatchRequest(purpose: string): void;
  /** Build watcher: an update handed to the notifier, by how it was learnt. */
  countWatchUpdate(source: 'poll' | 'realtime'): void;
  /** Build watcher: a change found already announced by another process (the `once` guard held). */
  countWatchDuplicateSuppressed(): void;
  /** Build watcher: an error in one of its rounds (logged and retried next round). */
  countWatchError(stage: string): void;
  /** Build watcher: repository leases this process holds, and live watcher processes it sees. */
  setWatchLeases(held: number, liveProcesses: number): void;
}

export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const ciRequests = new Histogram({
    name: 'ci_request_duration_seconds',
    help: 'CI API request attempts by deployment, method, route and outcome',
    labelNames: ['deployment', 'method', 'route', 'outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 20],
    registers: [registry],
  });
  const slackRequests = new Counter({
    name: 'slack_requests_total',
    help: 'Slack commands, actions, views and events received',
    labelNames: ['kind', 'name'],
    registers: [registry],
  });
  const acks = new Histogram({
    name: 'slack_ack_duration_seconds',
    help: 'Time from receiving a Slack request to acknowledging it',
    labelNames: ['kind'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const watchRequests = new Counter({
    name: 'watch_ci_requests_total',
    help: 'CI API requests of the build watcher by purpose',
    labelNames: ['purpose'],
    registers: [registry],
  });
  const watchUpdates = new Counter({
    name: 'watch_updates_total',
    help: 'Build updates the watcher handed to the notifier, by source',
    labelNames: ['source'],
    registers: [registry],
  });
  const watchDuplicates = new Counter({
    name: 'watch_duplicates_suppressed_total',
    help: 'Build changes the watcher found already announced by another process',
    registers: [registry],
  });
  const watchErrors = new Counter({
    name: 'watch_errors_total',
    help: 'Errors in build watcher rounds, by stage',
    labelNames: ['stage'],
    registers: [registry],
  });
  const watchLeases = new Gauge({
    name: 'watch_leases_held',
    help: 'Repository leases this process holds',
    registers: [registry],
  });
  const watchProcesses = new Gauge({
    name: 'watch_processes_live',
    help: 'Live build watcher processes this process sees',
    registers: [registry],
  });
  return {
    registry,
    observeCiAttempt(info) {
      const outcome = info.errorCode ?? String(info.status ?? 'none');
      ciRequests.observe(
        { deployment: info.deployment, method: info.method, route: info.route, outcome },
        info.ms / 1000,
      );
    },
    countSlackRequest(kind, name) {
      slackRequests.inc({ kind, name });
    },
    observeAck(kind, ms) {
      acks.observe({ kind }, ms / 1000);
    },
    countWatchRequest(purpose) {
      watchRequests.inc({ purpose });
    },
    countWatchUpdate(source) {
      watchUpdates.inc({ source });
    },
    countWatchDuplicateSuppressed() {
      watchDuplicates.inc();
    },
    countWatchError(stage) {
      watchErrors.inc({ stage });
    },
    setWatchLeases(held, liveProcesses) {
      watchLeases.set(held);
      watchProcesses.set(liveProcesses);
    },
  };
}
