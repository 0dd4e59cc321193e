/**
 * The core of the fake's in-memory world: id sequence, users and their tokens, repositories and
 * permissions, and the realtime emitter. `state-builds.ts` and `state.ts` add the rest on top.
 */
import { EventEmitter } from 'node:events';
import type { PusherMessage } from './realtime.js';
import type {
  AccountRecord,
  BuildRecord,
  CommitRecord,
  Deployment,
  JobRecord,
  LogRecord,
  MigrationStatus,
  Permission,
  RepoRecord,
  RequestRecord,
  UserRecord,
} from './records.js';

export interface StateConfig {
  deployment: Deployment;
  syncDurationMs: number;
  migrationStepMs: number;
}

export interface AddUserInput {
  login: string;
  /** Defaults to `token-<login>`. */
  token?: string;
  /** More tokens of the same user. */
  extraTokens?: string[];
  id?: number;
  name?: string;
  email?: string;
  gravatarId?: string;
  locale?: string;
  syncedAt?: string | null;
  correctScopes?: boolean;
  createdAt?: string;
}

export interface AddRepoInput {
  /** `owner/name`; dots, dashes and underscores are fine. */
  slug: string;
  id?: number;
  private?: boolean;
  /** Default true. */
  active?: boolean;
  /** How V2 shows `active`: 'boolean' (default), 'string' or 'absent' (fixture quirks). */
  activeField?: RepoRecord['activeField'];
  description?: string | null;
  /** `undefined` leaves the field out of V2 JSON. Default null. */
  githubLanguage?: string | null;
  defaultBranch?: string;
  migrated?: boolean;
  migrationStatus?: MigrationStatus | null;
  /** Statuses a V3 migration walks through; default queued → migrating → migrated. */
  migrationPlan?: MigrationStatus[];
  migrationStepMs?: number;
  /** Stored last-build fields for a repository whose last build is not itself in the fake. */
  lastBuild?: {
    id: number;
    number: string;
    state: string;
    duration: number | null;
    startedAt: string | null;
    finishedAt: string | null;
  };
}

/** The service's timestamps: ISO 8601 UTC without milliseconds. */
export function isoNow(now: Date = new Date()): string {
  return now.toISOString().replace(/\.\d{3}Z$/, 'Z');
}

export class FakeStateError extends Error {
  override readonly name = 'FakeStateError';
}

export class StateBase {
  /** Emits 'pusher' with a `PusherMessage`. */
  readonly events = new EventEmitter();
  readonly config: StateConfig;

  readonly users = new Map<number, UserRecord>();
  readonly repos = new Map<number, RepoRecord>();
  readonly commits = new Map<number, CommitRecord>();
  readonly builds = new Map<number, BuildRecord>();
  readonly jobs = new Map<number, JobRecord>();
  /** By log id. */
  readonly logs = new Map<number, LogRecord>();
  readonly requests = new Map<number, RequestRecord>();
  /** By login. */
  readonly accounts = new Map<string, AccountRecord>();

  protected readonly tokenOwners = new Map<string, number>();
  protected readonly githubTokenOwners = new Map<string, number>();
  /** userId → repoId → permission. */
  protected readonly permissions = new Map<number, Map<number, Permission>>();
  protected readonly timers = new Set<NodeJS.Timeout>();
  private lastId = 10_000_000;

  constructor(config: StateConfig) {
    this.config = config;
  }

  /** A fresh id, unique across every kind of record (so a build id never finds a job). */
  nextId(): number {
    this.lastId += 1;
    return this.lastId;
  }

  protected claimId(explicit: number | undefined, taken: ReadonlyMap<number, unknown>, kind: string): number {
    if (explicit === undefined) return this.nextId();
    if (taken.has(explicit)) throw new FakeStateError(`${kind} id ${explicit} is already taken`);
    return explicit;
  }

  /** Runs `fn` later unless the fake is closed first. Timers never keep the process alive. */
  protected schedule(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      fn();
    }, ms);
    timer.unref();
    this.timers.add(timer);
  }

  dispose(): void {
    for (const timer of this.timers) clearTimeout(timer);
    this.timers.clear();
  }

  protected emitPusher(message: PusherMessage): void {
    this.events.emit('pusher', message);
  }

  // ---- users and tokens ----

  addUser(input: AddUserInput): UserRecord {
    if (this.getUser(input.login)) throw new FakeStateError(`user ${input.login} exists`);
    const user: UserRecord = {
      id: this.claimId(input.id, this.users, 'user'),
      login: input.login,
      name: input.name ?? input.login,
      email: input.email ?? `${input.login}@example.com`,
      gravatarId: input.gravatarId ?? '',
      locale: input.locale ?? 'en',
      tokens: [],
      isSyncing: false,
      syncedAt: input.syncedAt === undefined ? isoNow() : input.syncedAt,
      correctScopes: input.correctScopes ?? true,
      createdAt: input.createdAt ?? isoNow(),
    };
    this.users.set(user.id, user);
    for (const token of [input.token ?? `token-${input.login}`, ...(input.extraTokens ?? [])]) {
      this.addToken(user.login, token);
    }
    this.accounts.set(user.login, {
      id: user.id,
      login: user.login,
      name: user.name,
      type: 'user',
      reposCount: undefined,
      subscribed: false,
    });
    return user;
  }

  addToken(userLogin: string, token: string): void {
    const user = this.requireUser(userLogin);
    if (this.tokenOwners.has(token)) throw new FakeStateError('token already in use');
    this.tokenOwners.set(token, user.id);
    user.tokens.push(token);
  }

  /** The token stops working at once (as after a revocation). */
  revokeToken(token: string): void {
    const userId = this.tokenOwners.get(token);
    this.tokenOwners.delete(token);
    const user = userId === undefined ? undefined : this.users.get(userId);
    if (user) user.tokens = user.tokens.filter((t) => t !== token);
  }

  /** A provider token that POST /auth/github exchanges for the user's first API token. */
  addGithubToken(githubToken: string, userLogin: string): void {
    this.githubTokenOwners.set(githubToken, this.requireUser(userLogin).id);
  }

  userByToken(token: string): UserRecord | undefined {
    const id = this.tokenOwners.get(token);
    return id === undefined ? undefined : this.users.get(id);
  }

  userByGithubToken(githubToken: string): UserRecord | undefined {
    const id = this.githubTokenOwners.get(githubToken);
    return id === undefined ? undefined : this.users.get(id);
  }

  getUser(ref: string | number): UserRecord | undefined {
    if (typeof ref === 'number') return this.users.get(ref);
    for (const user of this.users.values()) if (user.login === ref) return user;
    return undefined;
  }

  requireUser(ref: string | number): UserRecord {
    const user = this.getUser(ref);
    if (!user) throw new FakeStateError(`no user ${ref}`);
    return user;
  }

  // ---- repositories and permissions ----

  addRepo(input: AddRepoInput): RepoRecord {
    const [ownerName, name, ...rest] = input.slug.split('/');
    if (!ownerName || !name || rest.length > 0) throw new FakeStateError(`bad slug ${input.slug}`);
    if (this.getRepo(input.slug)) throw new FakeStateError(`repository ${input.slug} exists`);
    const last = input.lastBuild;
    const repo: RepoRecord = {
      id: this.claimId(input.id, this.repos, 'repository'),
      slug: input.slug,
      ownerName,
      name,
      description: input.description ?? null,
      private: input.private ?? false,
      active: input.active ?? true,
      activeField: input.activeField ?? 'boolean',
      githubLanguage: 'githubLanguage' in input ? input.githubLanguage : null,
      defaultBranch: input.defaultBranch ?? 'master',
      lastBuildId: last?.id ?? null,
      lastBuildNumber: last?.number ?? null,
      lastBuildState: last?.state ?? null,
      lastBuildDuration: last?.duration ?? null,
      lastBuildStartedAt: last?.startedAt ?? null,
      lastBuildFinishedAt: last?.finishedAt ?? null,
      migrated: input.migrated ?? false,
      migrationStatus: input.migrationStatus ?? null,
      migrationPlan: input.migrationPlan ?? ['queued', 'migrating', 'migrated'],
      migrationStepMs: input.migrationStepMs,
      createdAt: isoNow(),
    };
    this.repos.set(repo.id, repo);
    return repo;
  }

  /** By numeric id or by slug. */
  getRepo(ref: number | string): RepoRecord | undefined {
    if (typeof ref === 'number') return this.repos.get(ref);
    for (const repo of this.repos.values()) if (repo.slug === ref) return repo;
    return undefined;
  }

  requireRepo(ref: number | string | RepoRecord): RepoRecord {
    if (typeof ref === 'object') return ref;
    const repo = this.getRepo(ref);
    if (!repo) throw new FakeStateError(`no repository ${ref}`);
    return repo;
  }

  /** admin implies push and pull; push implies pull. A later grant replaces an earlier one. */
  grant(userLogin: string, repoRef: number | string | RepoRecord, permission: Permission): void {
    const user = this.requireUser(userLogin);
    const repo = this.requireRepo(repoRef);
    let perUser = this.permissions.get(user.id);
    if (!perUser) {
      perUser = new Map();
      this.permissions.set(user.id, perUser);
    }
    perUser.set(repo.id, permission);
  }

  revoke(userLogin: string, repoRef: number | string | RepoRecord): void {
    const user = this.requireUser(userLogin);
    this.permissions.get(user.id)?.delete(this.requireRepo(repoRef).id);
  }

  permissionOf(userId: number, repoId: number): Permission | undefined {
    return this.permissions.get(userId)?.get(repoId);
  }

  /** 'read' = may see the repository at all (public, or any permission on a private one). */
  can(user: UserRecord | undefined, repo: RepoRecord, level: 'read' | Permission): boolean {
    const permission = user ? this.permissionOf(user.id, repo.id) : undefined;
    switch (level) {
      case 'read':
        return !repo.private || permission !== undefined;
      case 'pull':
        return permission !== undefined;
      case 'push':
        return permission === 'push' || permission === 'admin';
      case 'admin':
        return permission === 'admin';
    }
  }

  /** Repository ids the user holds `level` on, ascending. */
  repoIdsWith(userId: number, level: Permission): number[] {
    const user = this.users.get(userId);
    return [...this.repos.values()]
      .filter((repo) => this.can(user, repo, level))
      .map((repo) => repo.id)
      .sort((a, b) => a - b);
  }

  usersWithAccess(repoId: number): UserRecord[] {
    return [...this.users.values()].filter((user) => this.permissionOf(user.id, repoId) !== undefined);
  }
}
