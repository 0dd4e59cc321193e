/** Messages between the HTTP front (its own thread) and the app (the main thread). */

export interface FrontSettings {
  port: number;
  signingSecret: string;
  /** Where Slack posts commands, interactivity and events. */
  endpoint: string;
  maxBodyBytes: number;
  /** How long the front waits for the app's answer to a modal submission before answering empty. */
  answerWaitMs: number;
}

/** A verified Slack request for the app. Already acknowledged unless `awaitsAnswer`. */
export interface Delivery {
  type: 'delivery';
  id: number;
  body: Record<string, unknown>;
  awaitsAnswer: boolean;
  retryNum: number | undefined;
  retryReason: string | undefined;
  /** Receipt to acknowledgement, measured in the front (undefined while it awaits the app). */
  ackMs: number | undefined;
}

/** Any other HTTP request (health, readiness, metrics): the app answers it. */
export interface RouteRequest {
  type: 'route';
  id: number;
  method: string;
  path: string;
}

export interface Listening {
  type: 'listening';
  port: number;
}

export type FromFront = Delivery | RouteRequest | Listening;

export interface Answer {
  type: 'answer';
  id: number;
  /** The body Bolt's `ack(response)` was given; none for an empty 200. */
  response: unknown;
}

export interface RouteAnswer {
  type: 'route-answer';
  id: number;
  status: number;
  headers: Record<string, string>;
  body: string;
}

export type ToFront = Answer | RouteAnswer;

/** Payload types whose HTTP answer carries what the app decides (a modal's errors or next view). */
export const ANSWERED_BY_APP: ReadonlySet<string> = new Set(['view_submission', 'block_suggestion']);
