import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { type AnyMiddlewareArgs, App, HTTPReceiver, type Middleware, SocketModeReceiver } from '@slack/bolt';
import type { Services } from '../services.js';
import { once } from '../store/once.js';
import { boltLogger } from './bolt-logger.js';
import { healthRoutes, startRouteServer } from './http-routes.js';
import { registerListeners } from './listeners.js';

export interface RunningSlackApp {
  app: App;
  /** The port serving /slack/events (HTTP mode) or the health routes (Socket Mode). */
  port: number;
  stop(): Promise<void>;
}

const EVENT_DEDUP_TTL_MS = 60 * 60 * 1000;

/**
 * Bolt in one of two transports: Socket Mode when an app-level token is configured, HTTP with
 * signature verification on POST /slack/events otherwise. Every listener is registered by
 * `registerListeners`; this file only wires transports, health routes and event de-duplication.
 */
export function createSlackApp(services: Services): App {
  const { config, logger } = services;
  const log = boltLogger(logger);
  const clientOptions = { slackApiUrl: config.slack.apiUrl };
  const receiver =
    config.slack.mode === 'socket'
      ? new SocketModeReceiver({
          appToken: config.slack.appToken ?? '',
          logger: log,
          // apps.connections.open is called by the receiver's own client, configured here.
          installerOptions: { clientOptions },
        })
      : new HTTPReceiver({
          signingSecret: config.slack.signingSecret ?? '',
          endpoints: '/slack/events',
          customRoutes: healthRoutes(services),
          logger: log,
        });
  const app = new App({ token: config.slack.botToken, receiver, logger: log, clientOptions });
  app.use(dropRetriedEvents(services));
  app.error(async (error) => {
    logger.error({ err: error }, 'unhandled error in a Slack listener');
  });
  registerListeners(app, services);
  return app;
}

export async function startSlackApp(
  services: Services,
  port = services.config.port,
): Promise<RunningSlackApp> {
  const app = createSlackApp(services);
  if (services.config.slack.mode === 'socket') {
    const routes = await startRouteServer(healthRoutes(services), port);
    await app.start();
    return { app, port: portOf(routes), stop: async () => stopBoth(app, routes) };
  }
  const server = (await app.start(port)) as Server;
  return { app, port: portOf(server), stop: () => app.stop().then(() => undefined) };
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
