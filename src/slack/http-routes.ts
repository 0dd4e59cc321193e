import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Services } from '../services.js';

/**
 * GET /healthz (the process is alive), GET /readyz (storage answers), GET /metrics (Prometheus).
 * In HTTP mode Bolt's receiver serves them next to /slack/events; in Socket Mode a small server of
 * our own does, so health checks work the same in both modes.
 */
export interface Route {
  path: string;
  method: string;
  handler: (req: IncomingMessage, res: ServerResponse) => void;
}

const READY_TIMEOUT_MS = 2_000;

export function healthRoutes(services: Services): Route[] {
  const json = (res: ServerResponse, status: number, body: object) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  return [
    { path: '/healthz', method: 'GET', handler: (_req, res) => json(res, 200, { ok: true }) },
    {
      path: '/readyz',
      method: 'GET',
      handler: (_req, res) => {
        const timeout = new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error('timed out')), READY_TIMEOUT_MS).unref(),
        );
        Promise.race([services.kv.ping(), timeout]).then(
          () => json(res, 200, { ok: true, store: services.storeKind }),
          () => json(res, 503, { ok: false, store: services.storeKind, problem: 'storage is not answering' }),
        );
      },
    },
    {
      path: '/metrics',
      method: 'GET',
      handler: (_req, res) => {
        services.metrics.registry.metrics().then(
          (text) => {
            res.writeHead(200, { 'content-type': services.metrics.registry.contentType });
            res.end(text);
          },
          () => json(res, 500, { ok: false }),
        );
      },
    },
  ];
}

/** The Socket Mode companion server for the same routes. */
export async function startRouteServer(routes: Route[], port: number): Promise<Server> {
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname;
    const route = routes.find((r) => r.path === path && r.method === req.method);
    if (route) route.handler(req, res);
    else {
      res.writeHead(404);
      res.end();
    }
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, resolve);
  });
  return server;
}
