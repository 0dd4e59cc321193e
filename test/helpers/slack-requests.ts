/**
 * Requests as Slack sends them to an app over HTTP: body builders for slash commands,
 * interactions and events, and `postToApp`, which signs a body with the signing secret (so the
 * app's signature check stays on in tests) and reports status, body and time taken.
 *
 * Ids default to the fake Slack's workspace (FAKE_IDENTITY). A trigger_id that should open a view
 * must come from `fakeSlack.issueTriggerId()`; the default one is well-formed but unknown to the
 * fake, so views.open answers `invalid_trigger_id` with it.
 */
import { createHmac, randomBytes } from 'node:crypto';
import { FAKE_IDENTITY } from '../fakes/slack/identity.js';

export interface SlackRequestOptions {
  signingSecret: string;
  /** Seconds since the epoch put in X-Slack-Request-Timestamp (and signed). Default: now. */
  timestamp?: number;
  /** Send a signature that does not match the body. */
  forgeSignature?: boolean;
}

export interface AppResponse {
  status: number;
  body: string;
  headers: Record<string, string>;
  /** Milliseconds from sending to the whole answer being read. */
  ms: number;
}

export interface SlackUser {
  userId?: string;
  userName?: string;
  teamId?: string;
}

/** `v0=` + hex HMAC-SHA256 of `v0:<timestamp>:<raw body>`, keyed by the signing secret. */
export function signBody(secret: string, timestamp: number, body: string): string {
  return `v0=${createHmac('sha256', secret).update(`v0:${timestamp}:${body}`).digest('hex')}`;
}

/** A trigger_id in Slack's format that no fake issued. */
function unknownTriggerId(): string {
  return `${Math.floor(Date.now() / 1000)}.${Date.now() % 1_000_000}.${randomBytes(8).toString('hex')}`;
}

function actionTs(): string {
  return (Date.now() / 1000).toFixed(6);
}

function userOf(p: SlackUser) {
  const userId = p.userId ?? FAKE_IDENTITY.userId;
  const teamId = p.teamId ?? FAKE_IDENTITY.teamId;
  return {
    id: userId,
    username: p.userName ?? FAKE_IDENTITY.userName,
    name: p.userName ?? FAKE_IDENTITY.userName,
    team_id: teamId,
  };
}

function teamOf(p: SlackUser) {
  return { id: p.teamId ?? FAKE_IDENTITY.teamId, domain: FAKE_IDENTITY.teamDomain };
}

function payloadBody(payload: object): string {
  return new URLSearchParams({ payload: JSON.stringify(payload) }).toString();
}

export interface SlashCommandParams extends SlackUser {
  text: string;
  responseUrl: string;
  channelId?: string;
  channelName?: string;
  triggerId?: string;
  /** Default '/ci'. */
  command?: string;
}

/** A slash command, form-encoded with the fields Slack sends. */
export function slashCommandBody(p: SlashCommandParams): string {
  return new URLSearchParams({
    token: FAKE_IDENTITY.verificationToken,
    team_id: p.teamId ?? FAKE_IDENTITY.teamId,
    team_domain: FAKE_IDENTITY.teamDomain,
    channel_id: p.channelId ?? FAKE_IDENTITY.channelId,
    channel_name: p.channelName ?? FAKE_IDENTITY.channelName,
    user_id: p.userId ?? FAKE_IDENTITY.userId,
    user_name: p.userName ?? FAKE_IDENTITY.userName,
    command: p.command ?? '/ci',
    text: p.text,
    api_app_id: FAKE_IDENTITY.appId,
    is_enterprise_install: 'false',
    response_url: p.responseUrl,
    trigger_id: p.triggerId ?? unknownTriggerId(),
  }).toString();
}

/** The view an interaction happened in, as Slack describes it in payloads. */
export interface ViewParams {
  id: string;
  callbackId: string;
  privateMetadata?: string;
  hash?: string;
  /** `state.values`: block_id → action_id → element state, e.g. `{ type: 'plain_text_input', value }`. */
  values?: Record<string, Record<string, object>>;
  blocks?: unknown[];
  type?: 'modal' | 'home';
}

function viewPayload(view: ViewParams, teamId: string): object {
  return {
    id: view.id,
    team_id: teamId,
    type: view.type ?? 'modal',
    blocks: view.blocks ?? [],
    private_metadata: view.privateMetadata ?? '',
    callback_id: view.callbackId,
    state: { values: view.values ?? {} },
    hash: view.hash ?? `${Math.floor(Date.now() / 1000)}.${randomBytes(4).toString('hex')}`,
    title: { type: 'plain_text', text: 'View', emoji: true },
    clear_on_close: false,
    notify_on_close: false,
    close: null,
    submit: null,
    previous_view_id: null,
    root_view_id: view.id,
    app_id: FAKE_IDENTITY.appId,
    external_id: '',
    app_installed_team_id: teamId,
    bot_id: FAKE_IDENTITY.botId,
  };
}

export interface BlockActionsParams extends SlackUser {
  actionId: string;
  blockId?: string;
  /** Default 'button'. */
  actionType?: 'button' | 'static_select' | 'overflow';
  value?: string;
  /** For selects and overflow menus. */
  selectedOption?: { value: string; text?: string };
  /** The message holding the button (a click in a message); omit for a click in a view. */
  message?: { ts: string; text?: string; blocks?: unknown[]; thread_ts?: string };
  channelId?: string;
  channelName?: string;
  /** The view holding the button (a click in a modal or the Home tab). */
  view?: ViewParams;
  /** Slack sends one for clicks in messages; none for clicks in views. */
  responseUrl?: string;
  triggerId?: string;
}

/** A click (block_actions), as `payload=<json>`. */
export function blockActionsBody(p: BlockActionsParams): string {
  const teamId = p.teamId ?? FAKE_IDENTITY.teamId;
  const channelId = p.channelId ?? FAKE_IDENTITY.channelId;
  const type = p.actionType ?? 'button';
  const action: Record<string, unknown> = {
    action_id: p.actionId,
    block_id: p.blockId ?? 'block',
    type,
    action_ts: actionTs(),
  };
  if (type === 'button') {
    action.text = { type: 'plain_text', text: 'Button', emoji: true };
    if (p.value !== undefined) action.value = p.value;
  }
  if (p.selectedOption !== undefined) {
    action.selected_option = {
      text: { type: 'plain_text', text: p.selectedOption.text ?? p.selectedOption.value, emoji: true },
      value: p.selectedOption.value,
    };
  }
  const payload: Record<string, unknown> = {
    type: 'block_actions',
    user: userOf(p),
    api_app_id: FAKE_IDENTITY.appId,
    token: FAKE_IDENTITY.verificationToken,
    trigger_id: p.triggerId ?? unknownTriggerId(),
    team: teamOf(p),
    enterprise: null,
    is_enterprise_install: false,
    state: { values: p.view?.values ?? {} },
    actions: [action],
  };
  if (p.view !== undefined) {
    payload.container = { type: 'view', view_id: p.view.id };
    payload.view = viewPayload(p.view, teamId);
  } else {
    const message = p.message;
    payload.container = {
      type: 'message',
      message_ts: message?.ts,
      channel_id: channelId,
      is_ephemeral: false,
      ...(message?.thread_ts ? { thread_ts: message.thread_ts } : {}),
    };
    payload.channel = { id: channelId, name: p.channelName ?? FAKE_IDENTITY.channelName };
    if (message !== undefined) {
      payload.message = {
        type: 'message',
        user: FAKE_IDENTITY.botUserId,
        bot_id: FAKE_IDENTITY.botId,
        team: teamId,
        ts: message.ts,
        text: message.text ?? '',
        blocks: message.blocks ?? [],
        ...(message.thread_ts ? { thread_ts: message.thread_ts } : {}),
      };
    }
  }
  if (p.responseUrl !== undefined) payload.response_url = p.responseUrl;
  return payloadBody(payload);
}

export interface ViewSubmissionParams extends SlackUser {
  view: ViewParams;
  triggerId?: string;
  /** Present when the modal asked for one (response_url_enabled). */
  responseUrls?: Array<{ block_id: string; action_id: string; channel_id: string; response_url: string }>;
}

/** A modal's submit (view_submission), as `payload=<json>`. */
export function viewSubmissionBody(p: ViewSubmissionParams): string {
  const teamId = p.teamId ?? FAKE_IDENTITY.teamId;
  return payloadBody({
    type: 'view_submission',
    team: teamOf(p),
    user: userOf(p),
    api_app_id: FAKE_IDENTITY.appId,
    token: FAKE_IDENTITY.verificationToken,
    trigger_id: p.triggerId ?? unknownTriggerId(),
    view: viewPayload(p.view, teamId),
    response_urls: p.responseUrls ?? [],
    is_enterprise_install: false,
    enterprise: null,
  });
}

export interface MessageShortcutParams extends SlackUser {
  callbackId: string;
  message: { ts: string; text: string; user?: string; thread_ts?: string };
  responseUrl: string;
  channelId?: string;
  channelName?: string;
  triggerId?: string;
}

/** A message shortcut (message_action), as `payload=<json>`. */
export function messageShortcutBody(p: MessageShortcutParams): string {
  const teamId = p.teamId ?? FAKE_IDENTITY.teamId;
  return payloadBody({
    type: 'message_action',
    token: FAKE_IDENTITY.verificationToken,
    action_ts: actionTs(),
    team: teamOf(p),
    user: userOf(p),
    channel: { id: p.channelId ?? FAKE_IDENTITY.channelId, name: p.channelName ?? FAKE_IDENTITY.channelName },
    is_enterprise_install: false,
    enterprise: null,
    callback_id: p.callbackId,
    trigger_id: p.triggerId ?? unknownTriggerId(),
    response_url: p.responseUrl,
    message_ts: p.message.ts,
    message: {
      type: 'message',
      user: p.message.user ?? FAKE_IDENTITY.userId,
      ts: p.message.ts,
      text: p.message.text,
      team: teamId,
      ...(p.message.thread_ts ? { thread_ts: p.message.thread_ts } : {}),
    },
  });
}

/** An Events API delivery (event_callback), as JSON. */
export function eventBody(p: { event: object; eventId?: string; teamId?: string }): string {
  const teamId = p.teamId ?? FAKE_IDENTITY.teamId;
  return JSON.stringify({
    token: FAKE_IDENTITY.verificationToken,
    team_id: teamId,
    api_app_id: FAKE_IDENTITY.appId,
    event: { event_ts: actionTs(), ...p.event },
    type: 'event_callback',
    event_id: p.eventId ?? `Ev${randomBytes(5).toString('hex').toUpperCase()}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: null,
        team_id: teamId,
        user_id: FAKE_IDENTITY.botUserId,
        is_bot: true,
        is_enterprise_install: false,
      },
    ],
    is_ext_shared_channel: false,
  });
}

/** The challenge Slack sends when a request URL is saved. */
export function urlVerificationBody(challenge: string): string {
  return JSON.stringify({ token: FAKE_IDENTITY.verificationToken, challenge, type: 'url_verification' });
}

/**
 * POSTs a body to the app the way Slack does: signed, with Slack's headers. The content type
 * follows the body (JSON for events, form for the rest) unless given; `retryNum` adds Slack's
 * retry headers as on a redelivered event.
 */
export async function postToApp(
  url: string,
  body: string,
  opts: SlackRequestOptions & { contentType?: string; retryNum?: number; timeoutMs?: number },
): Promise<AppResponse> {
  const timestamp = opts.timestamp ?? Math.floor(Date.now() / 1000);
  const signature = opts.forgeSignature
    ? signBody(`${opts.signingSecret}-forged`, timestamp, body)
    : signBody(opts.signingSecret, timestamp, body);
  const headers: Record<string, string> = {
    'Content-Type':
      opts.contentType ?? (body.startsWith('{') ? 'application/json' : 'application/x-www-form-urlencoded'),
    'User-Agent': 'Slackbot 1.0 (+https://api.slack.com/robots)',
    'X-Slack-Request-Timestamp': String(timestamp),
    'X-Slack-Signature': signature,
  };
  if (opts.retryNum !== undefined) {
    headers['X-Slack-Retry-Num'] = String(opts.retryNum);
    headers['X-Slack-Retry-Reason'] = 'http_timeout';
  }
  const started = performance.now();
  const response = await fetch(url, {
    method: 'POST',
    headers,
    body,
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  const text = await response.text();
  return {
    status: response.status,
    body: text,
    headers: Object.fromEntries(response.headers.entries()),
    ms: performance.now() - started,
  };
}
