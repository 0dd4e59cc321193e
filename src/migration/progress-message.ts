import { classifyDeliveryFailure } from '../notify/delivery-errors.js';
import type { Services } from '../services.js';
import { siteOf } from '../slack/deployments.js';
import type { SlackMessage } from '../slack/reply.js';
import { migrationProgressMessage } from '../slack/views/migration.js';
import type { MigrationBatch, MigrationBatches } from '../store/migration-batches.js';

export interface ProgressDeps {
  services: Services;
  batches: MigrationBatches;
  logger: Services['logger'];
}

/**
 * The one message of a batch, through the outbox: posted in the channel where `/ci migrate` ran
 * (or, where the app cannot post there, to the person who confirmed), then edited whenever what it
 * shows changes. Its ts is stored with the batch, so a process that resumes the batch edits it too.
 */
export class ProgressMessage {
  private shown: string | undefined;
  private posting: Promise<void> | undefined;

  constructor(
    private readonly deps: ProgressDeps,
    private readonly batch: MigrationBatch,
  ) {}

  /** Posts the message unless the batch has one; a failure is logged and tried again by `show`. */
  async ensurePosted(): Promise<void> {
    if (this.batch.message) return;
    this.posting ??= this.post().finally(() => {
      this.posting = undefined;
    });
    await this.posting;
  }

  /**
   * Brings the message up to the batch's state. Ordinary edits are not waited for (the outbox merges
   * a burst into one); the final one is.
   */
  async show(options: { final?: boolean } = {}): Promise<void> {
    const final = options.final ?? false;
    if (!this.batch.message) {
      if (final) await this.ensurePosted();
      else if (!this.posting) {
        this.ensurePosted().catch((error: unknown) => {
          this.deps.logger.warn({ err: error, batch: this.batch.id }, 'could not keep a migration message');
        });
      }
      if (!this.batch.message) return;
    }
    const content = this.render();
    const key = JSON.stringify(content);
    if (key === this.shown && !final) return;
    this.shown = key;
    const { channel, ts } = this.batch.message;
    const edit = this.deps.services.outbox
      .update({ teamId: this.batch.teamId, channel, ts, ...content, final })
      .catch((error: unknown) => {
        this.deps.logger.warn({ err: error, batch: this.batch.id }, 'could not update a migration message');
      });
    if (final) await edit;
  }

  private render(): SlackMessage {
    const { services } = this.deps;
    return migrationProgressMessage({
      batch: this.batch,
      from: siteOf(services, this.batch.from),
      to: siteOf(services, this.batch.to),
    });
  }

  private async post(): Promise<void> {
    const content = this.render();
    const placed = await this.place(content);
    if (!placed) return;
    this.batch.message = placed;
    this.shown = JSON.stringify(content);
    await this.deps.batches.save(this.batch);
    // The batch may have moved on while the post was on its way.
    await this.show();
  }

  private async place(content: SlackMessage): Promise<{ channel: string; ts: string } | undefined> {
    const { teamId, channelId, userId } = this.batch;
    const { outbox } = this.deps.services;
    if (channelId) {
      try {
        const posted = await outbox.post({ teamId, channel: channelId, ...content });
        return { channel: posted.channel, ts: posted.ts };
      } catch (error) {
        if (classifyDeliveryFailure(error) !== 'channel_gone') {
          this.deps.logger.warn({ err: error, batch: this.batch.id }, 'could not post a migration message');
          return undefined;
        }
      }
    }
    try {
      // The app's direct message with the person who confirmed.
      const posted = await outbox.post({ teamId, channel: userId, ...content });
      return { channel: posted.channel, ts: posted.ts };
    } catch (error) {
      this.deps.logger.warn({ err: error, batch: this.batch.id }, 'could not send a migration message');
      return undefined;
    }
  }
}
