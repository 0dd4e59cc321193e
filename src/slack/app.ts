import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AnyMiddlewareArgs, App, type Middleware, SocketModeReceiver } from '@slack/bolt';
import type { Services } from '../services.js';
import { once } from '../store/once.js';
import { boltLogger } from './bolt-logger.js';
import { FrontReceiver } from './front/receiver.js';
import { healthRoutes, startRouteServer } from './http-routes.js';
import { registerListeners } from './listeners.js';
import { createSlackFetch } from './web-fetch.js';

export interface RunningSlackApp {
  app: App;
  /** The port serving /slack/events (HTTP mode) or the health routes (Socket Mode). */
  port: number;
  stop(): Promise<void>;
}

const EVENT_DEDUP_TTL_MS = 60 * 60 * 1000;

/**
 * Bolt in one of two transports: Socket Mode when an app-level token is configured, otherwise HTTP
 * on POST /slack/events through the front thread (front/), which verifies signatures and
 * acknowledges before the app sees a request. Every listener is registered by `registerListeners`;
 * this file only wires transports, health routes and event de-duplication.
 */
function createSlackApp(services: Services): { app: App; front: FrontReceiver | undefined } {
  const { config, logger } = services;
  const log = boltLogger(logger);
  const clientOptions = { slackApiUrl: config.slack.apiUrl, fetch: createSlackFetch() };
  const front =
    config.slack.mode === 'socket'
      ? undefined
      : new FrontReceiver({
          signingSecret: config.slack.signingSecret ?? '',
          routes: healthRoutes(services),
          logger,
          onAck: (ms) => services.metrics.observeAck('front', ms),
        });
  const receiver =
    front ??
    new SocketModeReceiver({
      appToken: config.slack.appToken ?? '',
      logger: log,
      // apps.connections.open is called by the receiver's own client, configured here.
      installerOptions: { clientOptions },
    });
  const app = new App({ token: config.slack.botToken, receiver, logger: log, clientOptions });
  app.use(dropRetriedEvents(services));
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled error in a Slack listener');
  });
  registerListeners(app, services);
  return { app, front };
}

export async function startSlackApp(
  services: Services,
  port = services.config.port,
): Promise<RunningSlackApp> {
  const { app, front } = createSlackApp(services);
  if (!front) {
    const routes = await startRouteServer(healthRoutes(services), port);
    await app.start();
    return { app, port: portOf(routes), stop: async () => stopBoth(app, routes) };
  }
  await app.start(port);
  return { app, port: front.port ?? port, stop: () => app.stop().then(() => undefined) };
}

async function stopBoth(app: App, server: Server): Promise<void> {
  await app.stop();
  await new Promise<void>((resolve) => server.close(() => resolve()));
}

function portOf(server: Server): number {
  return (server.address() as AddressInfo).port;
}

/**
 * Slack resends an event it thinks was not acknowledged in time, and with several replicas the
 * resend may reach another process: the first to claim the event id handles it. When storage is
 * down the event is handled anyway (a duplicate preview beats a lost one).
 */
function dropRetriedEvents(services: Services): Middleware<AnyMiddlewareArgs> {
  return async ({ body, next }) => {
    const eventId = (body as { event_id?: unknown }).event_id;
    if (typeof eventId === 'string') {
      const first = await once(services.kv, `slack-event:${eventId}`, EVENT_DEDUP_TTL_MS).catch(() => true);
      if (!first) {
        services.logger.debug({ eventId }, 'dropping an event already handled');
        return;
      }
    }
    await next();
  };
}
