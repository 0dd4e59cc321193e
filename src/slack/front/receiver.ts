import { setPriority } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { App, Receiver, ReceiverEvent } from '@slack/bolt';
import type { Logger } from '../../log.js';
import { answerRoute, type Routes } from '../http-routes.js';
import type { FromFront, FrontSettings, ToFront } from './protocol.js';

export interface FrontReceiverOptions {
  signingSecret: string;
  routes: Routes;
  logger: Logger;
  /** Called with each acknowledgement time the front measured. */
  onAck?: (ms: number) => void;
}

const ENDPOINT = '/slack/events';
const MAX_BODY_BYTES = 10 * 1024 * 1024;
/** Slack waits 3 s for a modal submission's answer; leave room for the way back. */
const ANSWER_WAIT_MS = 2_800;
/**
 * Niceness the main thread (the app's work) takes once the front runs. On Linux the nice value
 * belongs to a thread, so the front keeps the default and gets a core first when both want one:
 * under CPU pressure the work waits a little, never Slack's acknowledgement.
 */
const WORK_NICENESS = 5;

/**
 * Bolt's receiver for HTTP mode. Requests arrive at the front (a worker thread, front/worker.ts),
 * which verifies and acknowledges them; they reach Bolt here already acknowledged, so a listener's
 * `ack()` only matters for modal submissions, whose answer goes back to the front.
 */
export class FrontReceiver implements Receiver {
  #app: App | undefined;
  #worker: Worker | undefined;
  #port: number | undefined;
  #stopping = false;

  constructor(private readonly options: FrontReceiverOptions) {}

  init(app: App): void {
    this.#app = app;
  }

  /** The port the front listens on, once started. */
  get port(): number | undefined {
    return this.#port;
  }

  /** Starts the front on `port` (0: any free port) and resolves with the port it listens on. */
  async start(port: number): Promise<{ port: number }> {
    this.#stopping = false;
    const settings: FrontSettings = {
      port,
      signingSecret: this.options.signingSecret,
      endpoint: ENDPOINT,
      maxBodyBytes: MAX_BODY_BYTES,
      answerWaitMs: ANSWER_WAIT_MS,
    };
    const worker = spawnFront(settings);
    this.#worker = worker;
    const listening = new Promise<number>((resolve, reject) => {
      worker.once('error', reject);
      worker.on('message', (message: FromFront) => {
        if (message.type === 'listening') resolve(message.port);
        else this.#receive(worker, message);
      });
    });
    const actualPort = await listening;
    this.#port = actualPort;
    lowerThisThreadsPriority();
    worker.on('error', (error) => this.options.logger.fatal({ err: error }, 'the HTTP front failed'));
    worker.once('exit', (code) => {
      if (!this.#stopping) {
        // Without its front the app hears nothing: exit, so the process manager restarts it.
        this.options.logger.fatal({ code }, 'the HTTP front stopped; exiting');
        process.exit(1);
      }
    });
    return { port: actualPort };
  }

  async stop(): Promise<void> {
    this.#stopping = true;
    await this.#worker?.terminate();
    this.#worker = undefined;
  }

  #receive(worker: Worker, message: Exclude<FromFront, { type: 'listening' }>): void {
    const send = (reply: ToFront) => worker.postMessage(reply);
    if (message.type === 'route') {
      void answerRoute(this.options.routes, message.method, message.path).then((reply) =>
        send({ type: 'route-answer', id: message.id, ...reply }),
      );
      return;
    }
    if (message.ackMs !== undefined) this.options.onAck?.(message.ackMs);
    let answered = !message.awaitsAnswer;
    const answer = (response?: unknown) => {
      if (answered) return;
      answered = true;
      send({ type: 'answer', id: message.id, response: response ?? null });
    };
    const event: ReceiverEvent = {
      body: message.body,
      ack: async (response?: unknown) => answer(response),
      ...(message.retryNum !== undefined ? { retryNum: message.retryNum } : {}),
      ...(message.retryReason !== undefined ? { retryReason: message.retryReason } : {}),
      customProperties: {},
    };
    const app = this.#app;
    if (!app) {
      answer();
      return;
    }
    app
      .processEvent(event)
      .catch((error: unknown) => this.options.logger.error({ err: error }, 'a Slack request failed in Bolt'))
      // A submission nobody answered (no listener matched, or it failed) still gets its empty 200.
      .finally(() => answer());
  }
}

function lowerThisThreadsPriority(): void {
  try {
    // 0: the calling thread (Linux); elsewhere the process, front included, which changes nothing.
    if (process.platform === 'linux') setPriority(0, WORK_NICENESS);
  } catch {
    // Not permitted in this sandbox: acknowledgements still come from their own thread.
  }
}

/**
 * The front runs compiled (dist/…/worker.js) in production. Under tsx (development, tests) a
 * worker thread does not inherit tsx's loader on Node 20, so it registers it first.
 */
function spawnFront(settings: FrontSettings): Worker {
  const here = import.meta.url;
  if (!here.endsWith('.ts')) return new Worker(new URL('./worker.js', here), { workerData: settings });
  const entry = new URL('./worker.ts', here).href;
  const bootstrap = `import('tsx/esm/api').then(({ register }) => { register(); return import(${JSON.stringify(entry)}); });`;
  return new Worker(bootstrap, { eval: true, workerData: settings });
}
