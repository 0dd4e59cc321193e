import { createHash } from 'node:crypto';
import { isFinished } from '../ci/schemas.js';
import type { Logger } from '../log.js';
import type { SlackOutbox } from '../slack/outbox/index.js';
import type { SlackMessage } from '../slack/reply.js';
import type { BuildMessage, BuildMessageSlot, BuildMessages } from '../store/build-messages.js';
import type { NotifyState } from '../store/notify-state.js';
import { BoundedMap } from './bounded-map.js';
import { PostingElsewhereError } from './delivery-errors.js';
import type { LatestBuilds, LatestEntry } from './latest-builds.js';
import { type BuildSnapshot, buildKeyOf, isStale } from './snapshot.js';

export interface ParentMessagesDeps {
  outbox: SlackOutbox;
  buildMessages: BuildMessages;
  state: NotifyState;
  latest: LatestBuilds;
  render: (snapshot: BuildSnapshot) => SlackMessage;
  /** How long a claim to post holds before another replica may post instead. */
  claimTtlMs: number;
  logger: Logger;
}

/** Messages whose last requested content this process remembers (to skip edits that change nothing). */
const REMEMBERED_MESSAGES = 20_000;

/**
 * The one message per build per channel (or direct message), posted exactly once and edited as
 * the build moves.
 *
 * Exactly once: a replica posts only after `BuildMessages.claim` (SET NX) gave it the slot, and
 * stores the ts; everyone else edits the stored message. In one process, a second update that
 * arrives while the post is on its way waits for it. A replica that loses the claim to another
 * process saves its state (`NotifyState.saveSnapshot`) and then looks for the message once more;
 * the winner reads that state after storing the ts. One of the two always sees the other, so the
 * newer state reaches the message either way.
 *
 * Content is rendered from `LatestBuilds` right before each call leaves, so racing updates end
 * with the newest state; an edit identical to the last one requested is skipped.
 */
export class ParentMessages {
  private readonly posting = new Map<string, Promise<BuildMessage>>();
  /** Slot → hash of the content last sent (or on its way); forgotten when that call fails. */
  private readonly shown = new BoundedMap<string, string>(REMEMBERED_MESSAGES);
  private readonly rendered = new WeakMap<BuildSnapshot, { message: SlackMessage; hash: string }>();

  constructor(private readonly deps: ParentMessagesDeps) {}

  /**
   * Edits the build's message in the slot when it exists; otherwise posts it when `post` says so.
   * Resolves with the message, or undefined when it is not wanted. Rejects with the outbox's
   * error, or PostingElsewhereError while another replica is posting it.
   */
  async show(slot: BuildMessageSlot, seen: LatestEntry, post: boolean): Promise<BuildMessage | undefined> {
    const existing = await this.deps.buildMessages.get(slot);
    if (existing) {
      await this.edit(slot, seen, existing);
      return existing;
    }
    const id = slotId(slot);
    const inFlight = this.posting.get(id);
    if (inFlight) {
      const message = await inFlight;
      await this.edit(slot, seen, message);
      return message;
    }
    if (!post) return undefined;
    const posting = this.claimAndPost(slot, seen);
    this.posting.set(id, posting);
    try {
      return await posting;
    } finally {
      if (this.posting.get(id) === posting) this.posting.delete(id);
    }
  }

  private async claimAndPost(slot: BuildMessageSlot, seen: LatestEntry): Promise<BuildMessage> {
    const { buildMessages, outbox, state, latest, claimTtlMs } = this.deps;
    const key = buildKeyOf(seen.snapshot);
    if (!(await buildMessages.claim(slot, claimTtlMs))) {
      // Another replica is posting: hand it our state, then catch up in case it already finished.
      await state.saveSnapshot(latest.newest(key, seen).snapshot);
      const message = await buildMessages.get(slot);
      if (!message)
        throw new PostingElsewhereError(
          `build ${slot.buildId} is being posted to ${slot.channelId} by another replica`,
        );
      await this.edit(slot, seen, message);
      return message;
    }
    const content = this.content(key, seen);
    this.shown.set(slotId(slot), content.hash);
    let posted: { channel: string; ts: string };
    try {
      posted = await outbox.post({ teamId: slot.teamId, channel: slot.channelId, ...content.message });
    } catch (error) {
      this.forget(slot, content.hash);
      await buildMessages.release(slot);
      throw error;
    }
    const message = await buildMessages.set(slot, posted);
    this.deps.logger.info(
      { deployment: slot.deployment, buildId: slot.buildId, channel: posted.channel, ts: posted.ts },
      'notifier: posted a build message',
    );
    const handedOver = await state.loadSnapshot(slot.deployment, slot.buildId);
    if (handedOver) latest.offer(key, handedOver);
    await this.edit(slot, seen, message);
    return message;
  }

  private async edit(slot: BuildMessageSlot, seen: LatestEntry, message: BuildMessage): Promise<void> {
    const progress = await this.deps.state.progress(slot.deployment, slot.buildId);
    const content = this.content(buildKeyOf(seen.snapshot), seen);
    // Another replica has seen a newer state of the build: its edit is the one that counts.
    if (progress && isStale(progress, content.build)) return;
    if (this.shown.get(slotId(slot)) === content.hash) return;
    this.shown.set(slotId(slot), content.hash);
    try {
      await this.deps.outbox.update({
        teamId: slot.teamId,
        channel: message.channel,
        ts: message.ts,
        ...content.message,
        // Without blocks chat.update would keep the old ones; an empty list removes them.
        blocks: content.message.blocks ?? [],
        final: content.final,
      });
    } catch (error) {
      this.forget(slot, content.hash);
      throw error;
    }
  }

  /** The newest state's message, rendered now (no await between this and the call it feeds). */
  private content(key: string, seen: LatestEntry) {
    const { snapshot } = this.deps.latest.newest(key, seen);
    let rendered = this.rendered.get(snapshot);
    if (rendered === undefined) {
      const message = this.deps.render(snapshot);
      const hash = createHash('sha256').update(JSON.stringify(message)).digest('base64url');
      rendered = { message, hash };
      // Every channel of a build shows the same state: render it once.
      this.rendered.set(snapshot, rendered);
    }
    return { ...rendered, build: snapshot.build, final: isFinished(snapshot.build.state) };
  }

  private forget(slot: BuildMessageSlot, hash: string): void {
    if (this.shown.get(slotId(slot)) === hash) this.shown.delete(slotId(slot));
  }
}

function slotId(slot: BuildMessageSlot): string {
  return `${slot.deployment}:${slot.buildId}:${slot.teamId}:${slot.channelId}`;
}
