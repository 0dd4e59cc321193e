/**
 * `FakeCiState`: everything a test can seed or change. It is built in layers, one file each:
 * `state-base.ts` (ids, users, tokens, repositories, permissions, the emitter) → `state-logs.ts`
 * (logs) → `state-builds.ts` (commits, builds, jobs, requests) → this file (caches, env vars,
 * settings, SSH and repository keys, accounts, broadcasts, user sync, the V3 migration timeline).
 */
import { randomUUID } from 'node:crypto';
import { decryptPkcs1v15, generateRepoKey, privateKeyFingerprint } from './keys.js';
import { recordChannels } from './realtime.js';
import {
  type AccountRecord,
  type BroadcastRecord,
  type CacheRecord,
  DEFAULT_SETTINGS,
  type EnvVarRecord,
  type RepoKeyRecord,
  type SettingsRecord,
  type SshKeyRecord,
  type UserRecord,
} from './records.js';
import { FakeStateError, isoNow } from './state-base.js';
import { BuildsState, type RepoRef } from './state-builds.js';

export type { AddRepoInput, AddUserInput, StateConfig } from './state-base.js';
export { FakeStateError, isoNow } from './state-base.js';
export type {
  AddBuildInput,
  AddRequestInput,
  BuildPatch,
  JobInput,
  JobPatch,
  RepoRef,
} from './state-builds.js';

export interface AddAccountInput {
  login: string;
  name?: string;
  type?: 'user' | 'organization';
  /** `undefined` leaves `id` out of the JSON (as the accounts fixture does). */
  id?: number;
  /** Default: counted from the repositories owned by `login`. */
  reposCount?: number;
  subscribed?: boolean;
}

export interface CacheFilter {
  branch?: string;
  /** Keeps caches whose slug contains this text. */
  match?: string;
}

export class FakeCiState extends BuildsState {
  readonly caches: CacheRecord[] = [];
  readonly envVars = new Map<string, EnvVarRecord>();
  /** By repository id. */
  readonly sshKeys = new Map<number, SshKeyRecord>();
  readonly broadcasts = new Map<number, BroadcastRecord>();
  private readonly settings = new Map<number, SettingsRecord>();
  private readonly repoKeys = new Map<number, RepoKeyRecord>();
  /** account login → user id → admin. */
  private readonly members = new Map<string, Map<number, boolean>>();
  /** Bumped by each migration start so steps of an earlier run are ignored. */
  private readonly migrationRuns = new Map<number, number>();

  // ---- caches ----

  addCache(
    repoRef: RepoRef,
    input: { branch: string; slug: string; size: number; lastModified?: string },
  ): CacheRecord {
    const cache: CacheRecord = {
      repositoryId: this.requireRepo(repoRef).id,
      branch: input.branch,
      slug: input.slug,
      size: input.size,
      lastModified: input.lastModified ?? isoNow(),
    };
    this.caches.push(cache);
    return cache;
  }

  cachesOf(repoId: number, filter: CacheFilter = {}): CacheRecord[] {
    return this.caches.filter(
      (c) =>
        c.repositoryId === repoId &&
        (filter.branch === undefined || c.branch === filter.branch) &&
        (filter.match === undefined || c.slug.includes(filter.match)),
    );
  }

  deleteCaches(repoId: number, filter: CacheFilter = {}): CacheRecord[] {
    const doomed = this.cachesOf(repoId, filter);
    for (const cache of doomed) this.caches.splice(this.caches.indexOf(cache), 1);
    return doomed;
  }

  // ---- environment variables ----

  addEnvVar(
    repoRef: RepoRef,
    input: { name: string; value: string; public?: boolean; id?: string },
  ): EnvVarRecord {
    const envVar: EnvVarRecord = {
      id: input.id ?? randomUUID(),
      repositoryId: this.requireRepo(repoRef).id,
      name: input.name,
      value: input.value,
      public: input.public ?? false,
    };
    this.envVars.set(envVar.id, envVar);
    return envVar;
  }

  envVarsOf(repoId: number): EnvVarRecord[] {
    return [...this.envVars.values()].filter((v) => v.repositoryId === repoId);
  }

  // ---- settings ----

  /** The repository's settings, defaults included (auto_cancel_* too, as the service sends them). */
  getSettings(repoRef: RepoRef): SettingsRecord {
    const repo = this.requireRepo(repoRef);
    return { ...DEFAULT_SETTINGS, ...this.settings.get(repo.id) };
  }

  updateSettings(repoRef: RepoRef, patch: SettingsRecord): SettingsRecord {
    const repo = this.requireRepo(repoRef);
    this.settings.set(repo.id, { ...this.settings.get(repo.id), ...patch });
    return this.getSettings(repo);
  }

  // ---- SSH key ----

  /** Throws when `value` is not a private key. */
  setSshKey(repoRef: RepoRef, input: { value: string; description?: string }): SshKeyRecord {
    const repo = this.requireRepo(repoRef);
    const fingerprint = privateKeyFingerprint(input.value);
    if (fingerprint === undefined) throw new FakeStateError('not a private key');
    const key: SshKeyRecord = {
      repositoryId: repo.id,
      description: input.description ?? this.sshKeys.get(repo.id)?.description ?? '',
      fingerprint,
      value: input.value,
    };
    this.sshKeys.set(repo.id, key);
    return key;
  }

  // ---- repository key pair ----

  /** The repository's key pair, made on first use (real RSA, so tests can decrypt with it). */
  keyOf(repoRef: RepoRef): RepoKeyRecord {
    const repo = this.requireRepo(repoRef);
    const existing = this.repoKeys.get(repo.id);
    if (existing) return existing;
    return this.regenerateKey(repo);
  }

  setRepoKey(repoRef: RepoRef, key: RepoKeyRecord): void {
    this.repoKeys.set(this.requireRepo(repoRef).id, key);
  }

  /** What POST /repos/{id}/key does: the old key stops working. */
  regenerateKey(repoRef: RepoRef): RepoKeyRecord {
    const key = generateRepoKey();
    this.repoKeys.set(this.requireRepo(repoRef).id, key);
    return key;
  }

  /**
   * Decrypts a `secure:` value the app made with the repository's public key (base64 of RSA
   * PKCS#1 v1.5), e.g. `NAME=value`. Throws for the rails/rails fixture key, whose private half is unknown.
   */
  decryptSecure(repoRef: RepoRef, base64: string): string {
    const { privateKeyPem } = this.keyOf(repoRef);
    if (privateKeyPem === null) throw new FakeStateError('this repository key has no known private half');
    return decryptPkcs1v15(privateKeyPem, Buffer.from(base64, 'base64')).toString('utf8');
  }

  // ---- accounts and broadcasts ----

  /** Adds or replaces the account with this login. */
  addAccount(input: AddAccountInput): AccountRecord {
    const account: AccountRecord = {
      id: input.id,
      login: input.login,
      name: input.name ?? input.login,
      type: input.type ?? 'organization',
      reposCount: input.reposCount,
      subscribed: input.subscribed ?? false,
    };
    this.accounts.set(account.login, account);
    return account;
  }

  /** Makes the user a member of an organization account; admins see it in GET /accounts. */
  addMember(accountLogin: string, userLogin: string, options: { admin: boolean }): void {
    if (!this.accounts.has(accountLogin)) throw new FakeStateError(`no account ${accountLogin}`);
    const user = this.requireUser(userLogin);
    const perAccount = this.members.get(accountLogin) ?? new Map<number, boolean>();
    perAccount.set(user.id, options.admin);
    this.members.set(accountLogin, perAccount);
  }

  /** The user's own account and the accounts they administer; with `all`, every membership. */
  accountsFor(user: UserRecord, all: boolean): AccountRecord[] {
    return [...this.accounts.values()].filter((account) => {
      if (account.type === 'user') return account.login === user.login;
      const admin = this.members.get(account.login)?.get(user.id);
      return admin === true || (all && admin === false);
    });
  }

  reposCountOf(account: AccountRecord): number {
    if (account.reposCount !== undefined) return account.reposCount;
    return [...this.repos.values()].filter((r) => r.ownerName === account.login).length;
  }

  addBroadcast(message: string, options: { id?: number } = {}): BroadcastRecord {
    const broadcast = { id: this.claimId(options.id, this.broadcasts, 'broadcast'), message };
    this.broadcasts.set(broadcast.id, broadcast);
    return broadcast;
  }

  // ---- user sync ----

  /**
   * What POST /users/sync does: `false` while a sync runs; one lasts `syncDurationMs`, then
   * `events` emits 'sync' with `{userId, isSyncing: false}`.
   */
  startSync(user: UserRecord): boolean {
    if (user.isSyncing) return false;
    user.isSyncing = true;
    this.schedule(this.config.syncDurationMs, () => {
      user.isSyncing = false;
      user.syncedAt = isoNow();
      this.events.emit('sync', { userId: user.id, isSyncing: false });
    });
    return true;
  }

  // ---- V3 migration ----

  /**
   * Starts the repository's migration plan: the first status at once, then one step per
   * `migrationStepMs`, each announced on `events` as 'migration' with `{repositoryId, status}` and
   * pushed as `repository:migration` to the users with access (`{repository: {id, slug,
   * migration_status}}`: the spec names the event but not its payload, so this shape is a guess the
   * app must not depend on).
   * Reaching migrated/success marks the repository migrated (and, on the wound-down 'org'
   * deployment, inactive).
   */
  startMigration(repoRef: RepoRef): void {
    const repo = this.requireRepo(repoRef);
    const run = (this.migrationRuns.get(repo.id) ?? 0) + 1;
    this.migrationRuns.set(repo.id, run);
    const stepMs = repo.migrationStepMs ?? this.config.migrationStepMs;
    const apply = (index: number): void => {
      const status = repo.migrationPlan[index];
      if (status === undefined || this.migrationRuns.get(repo.id) !== run) return;
      repo.migrationStatus = status;
      this.events.emit('migration', { repositoryId: repo.id, status });
      const data = { repository: { id: repo.id, slug: repo.slug, migration_status: status } };
      for (const channel of recordChannels(repo, this.usersWithAccess(repo.id))) {
        if (channel.startsWith('private-user-'))
          this.emitPusher({ channel, event: 'repository:migration', data });
      }
      if (status === 'migrated' || status === 'success') {
        repo.migrated = true;
        if (this.config.deployment === 'org') repo.active = false;
      }
      if (index + 1 < repo.migrationPlan.length) this.schedule(stepMs, () => apply(index + 1));
    };
    apply(0);
  }
}
