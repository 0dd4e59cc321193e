import PusherModule from 'pusher-js';
import { type ClientOptions, WebSocket } from 'ws';

/**
 * The one place that loads pusher-js. Its package has no `exports` map: `main` is the Node build
 * (CommonJS, `module.exports = Pusher`), but its typings say `export default`, so under NodeNext
 * TypeScript sees the class one level down, as `.default` (pusher/pusher-js#791). At run time the
 * default import *is* the class; the cast below states that once, and the check fails loudly if a
 * later release changes the shape.
 */
type PusherClass = typeof PusherModule.default;
export type PusherClient = InstanceType<PusherClass>;
export type {
  Channel,
  ChannelAuthorizationCallback,
  ChannelAuthorizationHandler,
  Options as PusherOptions,
} from 'pusher-js';

export const Pusher = PusherModule as unknown as PusherClass;
if (typeof Pusher !== 'function') {
  throw new Error('pusher-js did not load as a class: check how its Node build is exported');
}

/** What pusher-js expects of a socket (the browser WebSocket interface, handlers as properties). */
type PusherSocket = InstanceType<ReturnType<PusherClass['Runtime']['getWebSocketAPI']>>;

/** After `close()`, a silent peer is given this long to answer the close frame before the TCP
 * connection is destroyed, so a closed connection never holds the process open for long. */
const CLOSE_TIMEOUT_MS = 1_000;

/**
 * pusher-js's Node build opens sockets with a bundled faye-websocket, whose close handshake waits
 * up to 30 s for a peer that no longer answers and keeps the process alive all that time. This
 * adapter gives pusher-js the `ws` client (already a dependency) with a short close timeout.
 */
class NodeWebSocket implements PusherSocket {
  onopen?: () => void;
  onerror?: (error: unknown) => void;
  onclose?: (event: { code: number; reason: string; wasClean: boolean }) => void;
  onmessage?: (event: { data: unknown }) => void;
  readonly #socket: WebSocket;

  constructor(url: string) {
    // `closeTimeout` is a ws 8 client option that @types/ws does not list yet.
    const options: ClientOptions & { closeTimeout: number } = { closeTimeout: CLOSE_TIMEOUT_MS };
    this.#socket = new WebSocket(url, options);
    this.#socket.on('open', () => this.onopen?.());
    this.#socket.on('message', (data, isBinary) =>
      this.onmessage?.({ data: isBinary ? data : data.toString() }),
    );
    // Always listened to: an 'error' event without a listener would crash the process.
    this.#socket.on('error', (error) => this.onerror?.(error));
    this.#socket.on('close', (code, reason) =>
      this.onclose?.({ code, reason: reason.toString(), wasClean: code !== 1006 }),
    );
  }

  send(payload: string): void {
    if (this.#socket.readyState === WebSocket.OPEN) this.#socket.send(payload);
  }

  close(code?: number, reason?: string): void {
    this.#socket.close(code, reason);
  }
}

// pusher-js reads its socket class from this runtime hook for every connection attempt.
Pusher.Runtime.getWebSocketAPI = () => NodeWebSocket;

/** pusher-js keeps every client ever created in a static list; drop one that is closed for good. */
export function forgetClient(client: PusherClient): void {
  const index = Pusher.instances.indexOf(client);
  if (index >= 0) Pusher.instances.splice(index, 1);
}
