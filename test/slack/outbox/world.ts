/** The outbox on a virtual clock, talking to an enforcing fake Slack through the app's own client. */
import { createLogger } from '../../../src/log.js';
import { type OutboxOptions, SlackOutbox } from '../../../src/slack/outbox/index.js';
import {
  type CallInterception,
  FAKE_IDENTITY,
  type FakeSlack,
  startFakeSlack,
} from '../../fakes/slack/index.js';
import { outboxCallerFor } from '../../helpers/outbox-caller.js';
import { VirtualClock } from './virtual-time.js';

export const TEAM = FAKE_IDENTITY.teamId;

export interface OutboxWorld {
  clock: VirtualClock;
  slack: FakeSlack;
  outbox: SlackOutbox;
  /** Awaits `task` while virtual time moves on whenever the outbox has nothing on the wire. */
  run<T>(task: Promise<T>): Promise<T>;
  close(): Promise<void>;
}

export interface WorldOptions {
  outbox?: Partial<Omit<OutboxOptions, 'clientFor' | 'logger' | 'now' | 'sleep'>>;
  /** What the network does to each call before the fake answers it (5xx, dropped connections, waits). */
  intercept?: (method: string) => CallInterception;
  enforceRateLimits?: boolean;
}

export async function startWorld(options: WorldOptions = {}): Promise<OutboxWorld> {
  const clock = new VirtualClock();
  const slack = await startFakeSlack({
    enforceRateLimits: options.enforceRateLimits ?? true,
    now: clock.now,
  });
  slack.interceptCalls(options.intercept);
  const client = outboxCallerFor(slack);
  const outbox = new SlackOutbox({
    clientFor: () => client,
    logger: createLogger('silent'),
    now: clock.now,
    sleep: clock.sleep,
    ...options.outbox,
  });
  return {
    clock,
    slack,
    outbox,
    run: (task) => clock.run(task, () => outbox.stats().inFlight > 0),
    close: async () => {
      outbox.close();
      await slack.close();
    },
  };
}

/** Texts a message went through, oldest first, ending with its current text. */
export function textHistory(slack: FakeSlack, channel: string, ts: string): string[] {
  const message = slack.messages(channel).find((m) => m.ts === ts);
  if (message === undefined) return [];
  return [...message.history.map((v) => v.text), message.text];
}

export interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
}

export function deferred<T = void>(): Deferred<T> {
  let resolve: (value: T) => void = () => undefined;
  const promise = new Promise<T>((r) => {
    resolve = r;
  });
  return { promise, resolve };
}
