import { z } from 'zod';
import { DEPLOYMENTS, type Deployment } from '../config.js';
import { parseJsonOrUndefined } from '../json.js';
import type { Logger } from '../log.js';
import type { Kv } from './kv.js';
import { type TokenCipher, TokenDecryptError } from './token-cipher.js';

export interface LinkedAccount {
  teamId: string;
  userId: string;
  deployment: Deployment;
  ciLogin: string;
  ciUserId: number;
  /** ISO 8601 */
  linkedAt: string;
}

/** Slack ids are short alphanumeric strings; refusing ':' keeps one user's keys out of another's. */
const slackId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

const linkInput = z.object({
  teamId: slackId,
  userId: slackId,
  deployment: z.enum(DEPLOYMENTS),
  ciLogin: z.string().trim().min(1).max(255),
  ciUserId: z.number().int().positive(),
  token: z.string().min(1),
});

/** What one hash field holds; `sealedToken` comes from TokenCipher, never the token itself. */
const storedRecord = z.object({
  v: z.literal(1),
  ciLogin: z.string().min(1),
  ciUserId: z.number().int().positive(),
  linkedAt: z.iso.datetime(),
  sealedToken: z.string(),
});
type StoredRecord = z.infer<typeof storedRecord>;

/** Hash per Slack user: field = deployment, value = JSON StoredRecord. */
const accountKey = (teamId: string, userId: string) => `linked:${teamId}:${userId}`;
/** Set of Slack user ids linked to one CI login (lower-cased: GitHub logins ignore case). */
const loginKey = (teamId: string, deployment: Deployment, ciLogin: string) =>
  `linked-login:${teamId}:${deployment}:${encodeURIComponent(ciLogin.toLowerCase())}`;
/** Binds a sealed token to its slot: moved to another user or deployment, it no longer opens. */
const cipherContext = (teamId: string, userId: string, deployment: Deployment) =>
  `${teamId}:${userId}:${deployment}`;

type Clock = () => Date;
type WarnLogger = Pick<Logger, 'warn'>;

/**
 * The CI accounts Slack users linked, with their tokens sealed by TokenCipher. A record that does not
 * parse, or whose token does not decrypt (for example after its key was removed from
 * TOKEN_ENCRYPTION_KEY), reads as "not linked" and is logged without its contents; it is left in place
 * so that restoring the key brings it back, and linking again overwrites it.
 *
 * The login index behind `findByCiLogin` is written before the record and cleaned after it, and every
 * hit is checked against the record, so an interrupted write can leave a stale entry but never a
 * wrong answer.
 */
export class LinkedAccounts {
  constructor(
    private readonly kv: Kv,
    private readonly cipher: TokenCipher,
    private readonly clock: Clock = () => new Date(),
    private readonly logger?: WarnLogger,
  ) {}

  async link(account: Omit<LinkedAccount, 'linkedAt'> & { token: string }): Promise<LinkedAccount> {
    const parsed = linkInput.safeParse(account);
    if (!parsed.success) {
      // Names the bad fields only: the input holds a token.
      const fields = [...new Set(parsed.error.issues.map((issue) => issue.path.join('.')))];
      throw new RangeError(`Cannot link the account; invalid ${fields.join(', ')}`);
    }
    const { teamId, userId, deployment, ciLogin, ciUserId, token } = parsed.data;
    const linked: LinkedAccount = {
      teamId,
      userId,
      deployment,
      ciLogin,
      ciUserId,
      linkedAt: this.clock().toISOString(),
    };
    const record: StoredRecord = {
      v: 1,
      ciLogin,
      ciUserId,
      linkedAt: linked.linkedAt,
      sealedToken: this.cipher.encrypt(token, cipherContext(teamId, userId, deployment)),
    };
    const key = accountKey(teamId, userId);
    const previous = parseRecord(await this.kv.hget(key, deployment));
    await this.kv.sadd(loginKey(teamId, deployment, ciLogin), userId);
    await this.kv.hset(key, deployment, JSON.stringify(record));
    if (previous && previous.ciLogin.toLowerCase() !== ciLogin.toLowerCase()) {
      await this.kv.srem(loginKey(teamId, deployment, previous.ciLogin), userId);
    }
    return linked;
  }

  async get(teamId: string, userId: string, deployment: Deployment): Promise<LinkedAccount | undefined> {
    return (await this.open(teamId, userId, deployment))?.account;
  }

  /** The decrypted token; undefined when not linked. */
  async token(teamId: string, userId: string, deployment: Deployment): Promise<string | undefined> {
    return (await this.open(teamId, userId, deployment))?.token;
  }

  /** The account and its decrypted token in one read; undefined when not linked. */
  async open(
    teamId: string,
    userId: string,
    deployment: Deployment,
  ): Promise<{ account: LinkedAccount; token: string } | undefined> {
    assertSlackIds(teamId, userId);
    const raw = await this.kv.hget(accountKey(teamId, userId), deployment);
    return raw === null ? undefined : this.decode(raw, teamId, userId, deployment);
  }

  /** Every readable link of one Slack user, in the order of DEPLOYMENTS. */
  async list(teamId: string, userId: string): Promise<LinkedAccount[]> {
    assertSlackIds(teamId, userId);
    const fields = await this.kv.hgetall(accountKey(teamId, userId));
    const accounts: LinkedAccount[] = [];
    for (const deployment of DEPLOYMENTS) {
      const raw = fields[deployment];
      if (raw === undefined) continue;
      const opened = this.decode(raw, teamId, userId, deployment);
      if (opened) accounts.push(opened.account);
    }
    return accounts;
  }

  async unlink(teamId: string, userId: string, deployment: Deployment): Promise<boolean> {
    assertSlackIds(teamId, userId);
    const key = accountKey(teamId, userId);
    const previous = parseRecord(await this.kv.hget(key, deployment));
    const existed = await this.kv.hdel(key, deployment);
    if (previous) await this.kv.srem(loginKey(teamId, deployment, previous.ciLogin), userId);
    return existed;
  }

  /** Slack users of a team linked to a CI login on a deployment (for "DM me about my builds"). */
  async findByCiLogin(teamId: string, deployment: Deployment, ciLogin: string): Promise<LinkedAccount[]> {
    assertSlackIds(teamId);
    const userIds = (await this.kv.smembers(loginKey(teamId, deployment, ciLogin))).sort();
    const accounts: LinkedAccount[] = [];
    for (const userId of userIds) {
      if (!slackId.safeParse(userId).success) continue;
      const account = await this.get(teamId, userId, deployment);
      if (account && account.ciLogin.toLowerCase() === ciLogin.toLowerCase()) accounts.push(account);
    }
    return accounts;
  }

  private decode(
    raw: string,
    teamId: string,
    userId: string,
    deployment: Deployment,
  ): { account: LinkedAccount; token: string } | undefined {
    const record = parseRecord(raw);
    if (!record) {
      this.logger?.warn(
        { teamId, userId, deployment, problem: 'invalid_record' },
        'A linked account record is unreadable; treating it as not linked',
      );
      return undefined;
    }
    try {
      const token = this.cipher.decrypt(record.sealedToken, cipherContext(teamId, userId, deployment));
      const { ciLogin, ciUserId, linkedAt } = record;
      return { account: { teamId, userId, deployment, ciLogin, ciUserId, linkedAt }, token };
    } catch (error) {
      if (!(error instanceof TokenDecryptError)) throw error;
      this.logger?.warn(
        { teamId, userId, deployment, problem: error.reason },
        'A linked CI token cannot be decrypted (was its key removed from TOKEN_ENCRYPTION_KEY?); treating it as not linked',
      );
      return undefined;
    }
  }
}

function parseRecord(raw: string | null): StoredRecord | undefined {
  if (raw === null) return undefined;
  // Undefined for an unreadable record: the caller reports it.
  const result = storedRecord.safeParse(parseJsonOrUndefined(raw));
  return result.success ? result.data : undefined;
}

function assertSlackIds(...ids: string[]): void {
  if (!ids.every((id) => slackId.safeParse(id).success)) throw new RangeError('Not a Slack team or user id');
}
