import type { Identity } from './identity.js';
import { isRecord } from './outcome.js';
import type { Json } from './types.js';

const USER_ID = /^[UW][A-Z0-9]+$/;
const CHANNEL_ID = /^[CGD][A-Z0-9]+$/;

/**
 * Users and channels of the fake workspace. Any well-formed id exists, with facts derived from
 * the id; tests override facts with setUser / setChannel.
 */
export class Directory {
  private readonly users = new Map<string, Json>();
  private readonly channels = new Map<string, Json>();

  constructor(private readonly ids: Identity) {}

  isUserId(id: string): boolean {
    return USER_ID.test(id);
  }

  /** The direct-message channel between the bot and a user. */
  dmChannelFor(userId: string): string {
    return `D${userId}`;
  }

  user(id: string): Json | undefined {
    if (!USER_ID.test(id)) return undefined;
    const isBot = id === this.ids.botUserId;
    const name = isBot ? this.ids.botName : `user-${id.toLowerCase()}`;
    const realName = isBot ? this.ids.botName : `User ${id}`;
    const override = this.users.get(id) ?? {};
    const profile: Json = {
      real_name: realName,
      display_name: name,
      email: isBot ? undefined : `${name}@example.com`,
      image_48: `https://avatars.example.com/${id}_48.png`,
      team: this.ids.teamId,
      ...(isRecord(override.profile) ? override.profile : {}),
    };
    return {
      id,
      team_id: this.ids.teamId,
      name,
      deleted: false,
      color: '9f69e7',
      real_name: realName,
      tz: 'Europe/Berlin',
      tz_label: 'Central European Time',
      tz_offset: 3600,
      is_admin: false,
      is_owner: false,
      is_bot: isBot,
      is_app_user: false,
      updated: 1700000000,
      ...override,
      profile,
    };
  }

  setUser(id: string, fields: Json): void {
    this.users.set(id, { ...(this.users.get(id) ?? {}), ...fields });
  }

  channel(id: string): Json | undefined {
    if (!CHANNEL_ID.test(id)) return undefined;
    const isIm = id.startsWith('D');
    const name = isIm ? undefined : `channel-${id.toLowerCase()}`;
    const base: Json = {
      id,
      name,
      is_channel: id.startsWith('C'),
      is_group: id.startsWith('G'),
      is_im: isIm,
      is_mpim: false,
      is_private: !id.startsWith('C'),
      created: 1700000000,
      creator: isIm ? undefined : 'U0CREATOR',
      is_archived: false,
      is_general: false,
      name_normalized: name,
      is_shared: false,
      is_ext_shared: false,
      is_org_shared: false,
      is_member: true,
      topic: { value: '', creator: '', last_set: 0 },
      purpose: { value: '', creator: '', last_set: 0 },
      user: isIm ? id.slice(1) : undefined,
    };
    return { ...base, ...(this.channels.get(id) ?? {}) };
  }

  setChannel(id: string, fields: Json): void {
    this.channels.set(id, { ...(this.channels.get(id) ?? {}), ...fields });
  }

  clear(): void {
    this.users.clear();
    this.channels.clear();
  }
}
