import { z } from 'zod';
import { DEPLOYMENTS, type Deployment } from '../config.js';
import { parseJsonOrUndefined } from '../json.js';
import type { Kv } from './kv.js';

/** The repository a channel chose with `/ci use`, so commands there may leave it out. */
export interface ChannelDefault {
  /** `owner/name` or a numeric id, as the user wrote it. */
  repo: string;
  deployment: Deployment;
  setBy: string;
  setAt: string;
}

const record = z.object({
  repo: z.string().min(1).max(300),
  deployment: z.enum(DEPLOYMENTS),
  setBy: z.string(),
  setAt: z.string(),
});

const key = (teamId: string, channelId: string) => `channel-default:${teamId}:${channelId}`;

export class ChannelDefaults {
  constructor(private readonly kv: Kv) {}

  async get(teamId: string, channelId: string): Promise<ChannelDefault | undefined> {
    const raw = await this.kv.get(key(teamId, channelId));
    if (raw === null) return undefined;
    const parsed = record.safeParse(parseJsonOrUndefined(raw));
    return parsed.success ? parsed.data : undefined;
  }

  async set(teamId: string, channelId: string, value: ChannelDefault): Promise<void> {
    await this.kv.set(key(teamId, channelId), JSON.stringify(record.parse(value)));
  }

  async clear(teamId: string, channelId: string): Promise<boolean> {
    return this.kv.del(key(teamId, channelId));
  }
}
