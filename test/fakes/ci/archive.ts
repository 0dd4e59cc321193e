/**
 * The object storage that holds archived logs (`/jobs/<id>/log.txt`). Like S3 with a presigned or
 * public object, it refuses any request that carries an `Authorization` header: clients must not
 * forward the API token to another host.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { logBody } from './serialize.js';
import type { FakeCiState } from './state.js';
import type { RecordedRequest } from './types.js';

export interface ArchiveServer {
  url: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

function s3Error(res: ServerResponse, status: number, code: string, message: string): void {
  res.writeHead(status, { 'content-type': 'application/xml' });
  res.end(
    `<?xml version="1.0" encoding="UTF-8"?>\n<Error><Code>${code}</Code><Message>${message}</Message></Error>`,
  );
}

function handle(state: FakeCiState, req: IncomingMessage, res: ServerResponse): void {
  if (req.headers.authorization !== undefined) {
    s3Error(res, 403, 'AccessDenied', 'Authorization header is not accepted for this object');
    return;
  }
  const path = (req.url ?? '/').split('?')[0] ?? '/';
  const match = /^\/jobs\/(\d+)\/log\.txt$/.exec(path);
  const log =
    match && (req.method === 'GET' || req.method === 'HEAD') ? state.getLog(Number(match[1])) : undefined;
  if (!log?.archived) {
    s3Error(res, 404, 'NoSuchKey', 'The specified key does not exist.');
    return;
  }
  res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' });
  res.end(logBody(log));
}

export async function startArchiveServer(state: FakeCiState): Promise<ArchiveServer> {
  const requests: RecordedRequest[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const [path = '/', search = ''] = (req.url ?? '/').split('?');
      requests.push({
        method: req.method ?? 'GET',
        path,
        query: new URLSearchParams(search),
        headers: req.headers,
        body: Buffer.concat(chunks).toString('utf8'),
      });
      handle(state, req, res);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
