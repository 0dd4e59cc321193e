/** The outbox on a virtual clock, talking to an enforcing fake Slack through a real WebClient. */
import { webApi } from '@slack/bolt';
import { createLogger } from '../../../src/log.js';
import { type OutboxOptions, SlackOutbox } from '../../../src/slack/outbox/index.js';
import { FAKE_IDENTITY, type FakeSlack, startFakeSlack } from '../../fakes/slack/index.js';
import { silentLogger } from '../../fakes/slack/test-support.js';
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
  /** Stands between the WebClient and the fake (to answer 5xx or drop connections). */
  fetch?: typeof fetch;
  enforceRateLimits?: boolean;
}

export async function startWorld(options: WorldOptions = {}): Promise<OutboxWorld> {
  const clock = new VirtualClock();
  const slack = await startFakeSlack({
    enforceRateLimits: options.enforceRateLimits ?? true,
    now: clock.now,
  });
  // Retries off: the outbox alone decides about retries (as OutboxOptions.clientFor asks).
  const client = new webApi.WebClient(FAKE_IDENTITY.botToken, {
    slackApiUrl: slack.apiUrl,
    logger: silentLogger,
    retryConfig: { retries: 0 },
    rejectRateLimitedCalls: true,
    ...(options.fetch ? { fetch: options.fetch } : {}),
  });
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

/** What the network does with one call before it reaches the fake Slack. */
export type Interception = { respond: Response } | { fail: Error } | { hold: Promise<void> } | undefined;

/** A fetch that lets the test answer, break or hold calls by Web API method name. */
export function interceptingFetch(intercept: (method: string) => Interception): typeof fetch {
  return async (input, init) => {
    const url = input instanceof Request ? input.url : String(input);
    const method = new URL(url).pathname.split('/').pop() ?? '';
    const action = intercept(method);
    if (action !== undefined && 'respond' in action) return action.respond;
    if (action !== undefined && 'fail' in action) throw action.fail;
    if (action !== undefined && 'hold' in action) await action.hold;
    return fetch(input, init);
  };
}
