import { createServer, type Server } from 'node:http';
import type { Services } from '../services.js';

/**
 * GET /healthz (the app's event loop answers), GET /readyz (storage answers too), GET /metrics
 * (Prometheus). In HTTP mode the front thread forwards them to the app; in Socket Mode a small
 * server of our own serves them, so health checks work the same in both modes.
 */
export interface RouteReply {
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type Routes = Record<string, () => Promise<RouteReply>>;

const READY_TIMEOUT_MS = 2_000;

const json = (status: number, body: object): RouteReply => ({
  status,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

export function healthRoutes(services: Services): Routes {
  return {
    'GET /healthz': async () => json(200, { ok: true }),
    'GET /readyz': async () => {
      const timeout = new Promise<never>((_, reject) =>
        setTimeout(() => reject(new Error('timed out')), READY_TIMEOUT_MS).unref(),
      );
      return Promise.race([services.kv.ping(), timeout]).then(
        () => json(200, { ok: true, store: services.storeKind }),
        () => json(503, { ok: false, store: services.storeKind, problem: 'storage is not answering' }),
      );
    },
    'GET /metrics': async () => {
      const body = await services.metrics.registry.metrics();
      return { status: 200, headers: { 'content-type': services.metrics.registry.contentType }, body };
    },
  };
}

/** The answer to `method path`: the route's, or 404. */
export async function answerRoute(routes: Routes, method: string, path: string): Promise<RouteReply> {
  const route = routes[`${method} ${path}`];
  if (!route) return { status: 404, headers: {}, body: '' };
  try {
    return await route();
  } catch {
    return json(500, { ok: false });
  }
}

/** The Socket Mode companion server for the same routes. */
export async function startRouteServer(routes: Routes, port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    void answerRoute(routes, req.method ?? 'GET', path).then((reply) => {
      res.writeHead(reply.status, reply.headers);
      res.end(reply.body);
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}
