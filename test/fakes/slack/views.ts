import { randomBytes } from 'node:crypto';
import type { Identity } from './identity.js';
import { stringArg } from './outcome.js';
import type { Json, StoredView } from './types.js';

/** A trigger_id opens a view only this long after the click or command that produced it. */
export const TRIGGER_LIFETIME_MS = 3000;
/** views.open plus at most 2 views.push. */
export const MAX_VIEW_STACK = 3;

const TRIGGER_FORMAT = /^\d+\.\d+\.[0-9a-f]+$/;

type TriggerError = 'invalid_trigger_id' | 'expired_trigger_id' | 'exchanged_trigger_id';

/** trigger_ids issued to tests, each usable once within TRIGGER_LIFETIME_MS. */
export class TriggerRegistry {
  private readonly issued = new Map<string, { issuedAt: number; viewId?: string; used: boolean }>();
  private counter = 0;

  constructor(private readonly now: () => number) {}

  /** `viewId` ties the trigger to an interaction inside that view, so views.push targets its stack. */
  issue(viewId?: string): string {
    this.counter += 1;
    const id = `${Math.floor(this.now() / 1000)}.${this.counter}.${randomBytes(8).toString('hex')}`;
    this.issued.set(
      id,
      viewId === undefined
        ? { issuedAt: this.now(), used: false }
        : { issuedAt: this.now(), viewId, used: false },
    );
    return id;
  }

  exchange(triggerId: string): { ok: true; viewId?: string } | { ok: false; error: TriggerError } {
    const trigger = TRIGGER_FORMAT.test(triggerId) ? this.issued.get(triggerId) : undefined;
    if (trigger === undefined) return { ok: false, error: 'invalid_trigger_id' };
    if (trigger.used) return { ok: false, error: 'exchanged_trigger_id' };
    if (this.now() - trigger.issuedAt > TRIGGER_LIFETIME_MS)
      return { ok: false, error: 'expired_trigger_id' };
    trigger.used = true;
    return trigger.viewId === undefined ? { ok: true } : { ok: true, viewId: trigger.viewId };
  }

  clear(): void {
    this.issued.clear();
  }
}

export type ViewResult = { ok: true; view: StoredView } | { ok: false; error: string };

/** Modals (in stacks of at most 3) and Home tabs. */
export class ViewStore {
  private readonly byId = new Map<string, StoredView>();
  private readonly stacks = new Map<string, string[]>();
  private readonly homeByUser = new Map<string, string>();
  private lastRootId: string | undefined;
  private counter = 0;

  constructor(
    private readonly ids: Identity,
    private readonly now: () => number,
  ) {}

  all(): StoredView[] {
    return structuredClone([...this.byId.values()]);
  }

  home(userId: string): StoredView | undefined {
    const id = this.homeByUser.get(userId);
    const view = id === undefined ? undefined : this.byId.get(id);
    return view === undefined ? undefined : structuredClone(view);
  }

  open(payload: Json): ViewResult {
    const duplicate = this.duplicateExternalId(payload);
    if (duplicate) return duplicate;
    const view = this.create(payload, 'modal', null);
    this.stacks.set(view.id, [view.id]);
    this.lastRootId = view.id;
    return { ok: true, view };
  }

  /** Pushes onto the stack holding `fromViewId`, or onto the latest stack for an untied trigger. */
  push(fromViewId: string | undefined, payload: Json): ViewResult {
    const rootId = fromViewId === undefined ? this.lastRootId : this.byId.get(fromViewId)?.root_view_id;
    const stack = rootId === undefined || rootId === null ? undefined : this.stacks.get(rootId);
    const top = stack?.at(-1);
    if (stack === undefined || top === undefined) return { ok: false, error: 'not_found' };
    if (stack.length >= MAX_VIEW_STACK) return { ok: false, error: 'push_limit_reached' };
    const duplicate = this.duplicateExternalId(payload);
    if (duplicate) return duplicate;
    const view = this.create(payload, 'modal', stack[0] ?? null, top);
    stack.push(view.id);
    return { ok: true, view };
  }

  update(target: { viewId?: string; externalId?: string }, payload: Json, hash?: string): ViewResult {
    const view = [...this.byId.values()].find(
      (v) =>
        v.id === target.viewId || (target.externalId !== undefined && v.external_id === target.externalId),
    );
    if (view === undefined) return { ok: false, error: 'not_found' };
    if (hash !== undefined && hash !== view.hash) return { ok: false, error: 'hash_conflict' };
    view.view = payload;
    view.hash = this.newHash();
    return { ok: true, view };
  }

  publish(userId: string, payload: Json, hash?: string): ViewResult {
    const existingId = this.homeByUser.get(userId);
    const existing = existingId === undefined ? undefined : this.byId.get(existingId);
    if (existing === undefined) {
      const view = this.create(payload, 'home', null);
      view.user_id = userId;
      this.homeByUser.set(userId, view.id);
      return { ok: true, view };
    }
    return this.update({ viewId: existing.id }, payload, hash);
  }

  /** The view object Slack returns from views.* methods. */
  toJson(view: StoredView): Json {
    const payload = view.view;
    return {
      id: view.id,
      team_id: this.ids.teamId,
      type: view.type,
      title: payload.title,
      close: payload.close ?? null,
      submit: payload.submit ?? null,
      blocks: payload.blocks ?? [],
      private_metadata: payload.private_metadata ?? '',
      callback_id: payload.callback_id ?? '',
      external_id: view.external_id,
      state: { values: {} },
      hash: view.hash,
      clear_on_close: payload.clear_on_close ?? false,
      notify_on_close: payload.notify_on_close ?? false,
      root_view_id: view.root_view_id,
      previous_view_id: view.previous_view_id,
      app_id: this.ids.appId,
      app_installed_team_id: this.ids.teamId,
      bot_id: this.ids.botId,
    };
  }

  clear(): void {
    this.byId.clear();
    this.stacks.clear();
    this.homeByUser.clear();
    this.lastRootId = undefined;
  }

  private create(
    payload: Json,
    type: 'modal' | 'home',
    rootId: string | null,
    previousId: string | null = null,
  ): StoredView {
    this.counter += 1;
    const id = `V${String(this.counter).padStart(10, '0')}`;
    const view: StoredView = {
      id,
      type,
      hash: this.newHash(),
      root_view_id: type === 'home' ? null : (rootId ?? id),
      previous_view_id: previousId,
      external_id: stringArg(payload, 'external_id') ?? '',
      view: payload,
    };
    this.byId.set(id, view);
    return view;
  }

  private duplicateExternalId(payload: Json): ViewResult | undefined {
    const externalId = stringArg(payload, 'external_id');
    if (externalId === undefined || externalId === '') return undefined;
    const taken = [...this.byId.values()].some((v) => v.external_id === externalId);
    return taken ? { ok: false, error: 'duplicate_external_id' } : undefined;
  }

  private newHash(): string {
    return `${Math.floor(this.now() / 1000)}.${randomBytes(4).toString('hex')}`;
  }
}
