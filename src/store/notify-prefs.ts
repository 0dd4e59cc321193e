import { z } from 'zod';
import { compareText } from '../compare-text.js';
import { DEPLOYMENTS, type Deployment } from '../config.js';
import { parseJsonOrUndefined } from '../json.js';
import type { Kv } from './kv.js';

/** Who a person is on one deployment, saved when they turn notifications on (for matching commits). */
export interface NotifyIdentity {
  deployment: Deployment;
  ciLogin: string;
  /** The e-mail address of their CI profile, when it has one. */
  email?: string;
}

/** A person who asked for direct messages about builds of their own commits (`/ci notify me on`). */
export interface NotifyPref {
  teamId: string;
  userId: string;
  /** ISO 8601: when they turned it on (last). */
  since: string;
  identities: NotifyIdentity[];
}

const slackId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const identity = z.object({
  deployment: z.enum(DEPLOYMENTS),
  ciLogin: z.string().min(1).max(255),
  email: z.string().min(1).max(320).optional(),
});
const storedRecord = z.object({ v: z.literal(1), since: z.iso.datetime(), identities: z.array(identity) });

/** Hash per team: field = Slack user id, value = JSON record; a user without a field is off. */
const teamKey = (teamId: string) => `notify-me:${teamId}`;

type Clock = () => Date;

export class NotifyPrefs {
  constructor(
    private readonly kv: Kv,
    private readonly clock: Clock = () => new Date(),
  ) {}

  /**
   * Turns direct messages on (saving who the person is on each linked deployment) or off.
   * Returns whether they were on before.
   */
  async set(
    teamId: string,
    userId: string,
    on: boolean,
    identities: NotifyIdentity[] = [],
  ): Promise<boolean> {
    assertSlackIds(teamId, userId);
    if (!on) return this.kv.hdel(teamKey(teamId), userId);
    const record = storedRecord.parse({
      v: 1,
      since: this.clock().toISOString(),
      identities: z.array(identity).parse(identities),
    });
    const wasOn = (await this.get(teamId, userId)) !== undefined;
    await this.kv.hset(teamKey(teamId), userId, JSON.stringify(record));
    return wasOn;
  }

  async isOn(teamId: string, userId: string): Promise<boolean> {
    return (await this.get(teamId, userId)) !== undefined;
  }

  /** A record that does not parse reads as off. */
  async get(teamId: string, userId: string): Promise<NotifyPref | undefined> {
    assertSlackIds(teamId, userId);
    return toPref(teamId, userId, await this.kv.hget(teamKey(teamId), userId));
  }

  /** Everyone in a team who has direct messages on, by user id. */
  async usersOn(teamId: string): Promise<NotifyPref[]> {
    assertSlackIds(teamId);
    const fields = await this.kv.hgetall(teamKey(teamId));
    const prefs: NotifyPref[] = [];
    for (const [userId, raw] of Object.entries(fields).sort(([a], [b]) => compareText(a, b))) {
      if (!slackId.safeParse(userId).success) continue;
      const pref = toPref(teamId, userId, raw);
      if (pref) prefs.push(pref);
    }
    return prefs;
  }
}

function toPref(teamId: string, userId: string, raw: string | null): NotifyPref | undefined {
  if (raw === null) return undefined;
  const parsed = storedRecord.safeParse(parseJsonOrUndefined(raw));
  return parsed.success
    ? { teamId, userId, since: parsed.data.since, identities: parsed.data.identities }
    : undefined;
}

function assertSlackIds(...ids: string[]): void {
  if (!ids.every((id) => slackId.safeParse(id).success)) throw new RangeError('Not a Slack team or user id');
}
