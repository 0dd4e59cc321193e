import { EventEmitter } from 'node:events';
import { createLogger, type Logger } from '../../src/log.js';

/** Resolves once `condition()` holds, re-checked whenever `emitter` emits `event`. */
export function until(
  emitter: EventEmitter,
  event: string,
  condition: () => boolean,
  description: string,
  timeoutMs = 5000,
): Promise<void> {
  if (condition()) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const check = () => {
      if (!condition()) return;
      clearTimeout(timer);
      emitter.off(event, check);
      resolve();
    };
    const timer = setTimeout(() => {
      emitter.off(event, check);
      reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description}`));
    }, timeoutMs);
    emitter.on(event, check);
  });
}

export async function withTimeout<T>(
  promise: Promise<T>,
  timeoutMs: number,
  description: string,
): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(
      () => reject(new Error(`timed out after ${timeoutMs} ms waiting for ${description}`)),
      timeoutMs,
    );
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** A function that records its calls, and lets a test wait for the nth one. */
export class Calls<Args extends unknown[]> {
  readonly calls: Args[] = [];
  readonly #changes = new EventEmitter();

  readonly fn = (...args: Args): void => {
    this.calls.push(args);
    this.#changes.emit('call');
  };

  get count(): number {
    return this.calls.length;
  }

  waitFor(count: number, timeoutMs?: number): Promise<void> {
    return until(this.#changes, 'call', () => this.calls.length >= count, `${count} call(s)`, timeoutMs);
  }
}

export type LogRecord = Record<string, unknown> & { level: number; msg?: string };

/** A pino logger (the app's own, with redaction) whose records a test can read and wait for. */
export function captureLogs(): {
  logger: Logger;
  records: LogRecord[];
  waitFor: (match: (r: LogRecord) => boolean, description: string, timeoutMs?: number) => Promise<void>;
} {
  const records: LogRecord[] = [];
  const changes = new EventEmitter();
  const logger = createLogger('debug', {
    write(line: string) {
      records.push(JSON.parse(line) as LogRecord);
      changes.emit('record');
    },
  });
  return {
    logger,
    records,
    waitFor: (match, description, timeoutMs) =>
      until(changes, 'record', () => records.some(match), description, timeoutMs),
  };
}

export const WARN = 40;
export const ERROR = 50;
