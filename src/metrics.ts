import { Counter, collectDefaultMetrics, Histogram, Registry } from 'prom-client';
import type { AttemptInfo } from './ci/client.js';

/** Prometheus metrics served on GET /metrics. One registry per app instance (tests build several). */
export interface Metrics {
  registry: Registry;
  observeCiAttempt(info: AttemptInfo): void;
  countSlackRequest(kind: string, name: string): void;
  observeAck(kind: string, ms: number): void;
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
  };
}
