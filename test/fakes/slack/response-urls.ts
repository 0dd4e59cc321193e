import { randomBytes } from 'node:crypto';
import type { FakeContext } from './context.js';
import { parseJson } from './decode.js';
import { checkMessageContent, type MessageContent } from './message-content.js';
import { boolArg, isRecord, stringArg } from './outcome.js';
import { Recorder } from './recorder.js';
import type { Json, ResponseRecord } from './types.js';

/** A response_url takes 5 posts within 30 minutes. */
export const RESPONSE_URL_MAX_USES = 5;
export const RESPONSE_URL_LIFETIME_MS = 30 * 60 * 1000;

interface IssuedUrl {
  issuedAt: number;
  uses: number;
  channel?: string;
  messageTs?: string;
}

export interface HookAnswer {
  status: number;
  body: Json;
}

/**
 * response_urls served by the fake (path /hooks/actions/...). Posts are checked like messages and
 * recorded; a URL bound to a channel and message also edits, deletes or adds stored messages.
 */
export class ResponseUrls {
  readonly records = new Recorder<ResponseRecord>((r) => (r.ok ? 'post' : `post (${r.error})`));
  private readonly issued = new Map<string, IssuedUrl>();
  private counter = 0;

  constructor(
    private readonly ctx: FakeContext,
    private readonly origin: () => string,
  ) {}

  create(context: { channel?: string; messageTs?: string } = {}): string {
    this.counter += 1;
    const path = `/hooks/actions/${this.ctx.ids.teamId}/${this.counter}/${randomBytes(12).toString('hex')}`;
    this.issued.set(path, { issuedAt: this.ctx.now(), uses: 0, ...context });
    return `${this.origin()}${path}`;
  }

  reset(): void {
    this.records.clear();
    this.issued.clear();
  }

  answer(path: string, contentType: string, rawBody: string): HookAnswer {
    const body = parseBody(contentType, rawBody);
    const respond = (status: number, answerBody: Json): HookAnswer => {
      const record: ResponseRecord = {
        url: `${this.origin()}${path}`,
        body: body ?? {},
        status,
        ok: answerBody.ok === true,
        at: this.ctx.now(),
      };
      if (typeof answerBody.error === 'string') record.error = answerBody.error;
      this.records.push(record);
      return { status, body: answerBody };
    };

    const issued = this.issued.get(path);
    if (issued === undefined) return respond(404, { ok: false, error: 'no_service' });
    if (this.ctx.now() - issued.issuedAt > RESPONSE_URL_LIFETIME_MS) {
      return respond(404, { ok: false, error: 'expired_url' });
    }
    if (issued.uses >= RESPONSE_URL_MAX_USES) return respond(404, { ok: false, error: 'used_url' });
    if (body === undefined) return respond(400, { ok: false, error: 'invalid_payload' });

    if (boolArg(body, 'delete_original')) {
      issued.uses += 1;
      if (issued.channel !== undefined && issued.messageTs !== undefined) {
        this.ctx.messages.remove(issued.channel, issued.messageTs);
      }
      return respond(200, { ok: true });
    }
    const checked = checkMessageContent(body);
    if (!checked.ok) return respond(400, checked.outcome.body);
    issued.uses += 1;
    this.applyToMessages(issued, body, checked.content);
    return respond(200, { ok: true });
  }

  private applyToMessages(issued: IssuedUrl, body: Json, content: MessageContent): void {
    const { channel, messageTs } = issued;
    if (channel === undefined) return;
    if (boolArg(body, 'replace_original')) {
      if (messageTs !== undefined) this.ctx.messages.edit(channel, messageTs, content, 'response_url');
      return;
    }
    if (stringArg(body, 'response_type') !== 'in_channel') return;
    const threadTs = stringArg(body, 'thread_ts');
    this.ctx.messages.add({
      channel,
      ...(threadTs ? { thread_ts: threadTs } : {}),
      text: content.text ?? '',
      ...(content.blocks ? { blocks: content.blocks } : {}),
      ...(content.attachments ? { attachments: content.attachments } : {}),
      user: this.ctx.ids.botUserId,
      bot_id: this.ctx.ids.botId,
      truncated: content.truncated,
    });
  }
}

/** Bolt's respond() posts JSON; a `payload=` form is accepted too. */
function parseBody(contentType: string, rawBody: string): Json | undefined {
  const text = contentType.startsWith('application/x-www-form-urlencoded')
    ? (new URLSearchParams(rawBody).get('payload') ?? '')
    : rawBody;
  const parsed = parseJson(text);
  return isRecord(parsed) ? parsed : undefined;
}
