/**
 * THE SEED WORLD (loaded unless `startFakeCi({ seed: false })`), built from ../shared/fixtures/travis.
 *
 * Users
 *   rkh      id 267   token 'token-rkh'      GitHub token 'github-token-rkh' (travisrb_v2_user.json)
 *   visitor  id 4242  token 'token-visitor'  no rights anywhere
 *
 * Repositories
 *   rails/rails         id 891     public   rkh admin. V2 body = travisrb_v2_repo_rails.json (no `active`).
 *                                           Key: the fixture public key, fingerprint 'foobar'; its private
 *                                           half is unknown (privateKeyPem null) — call
 *                                           state.regenerateKey(891) or use another repo to decrypt.
 *                                           Env vars: encrypted_randomhex_key (8aa1c74d-…), encrypted_randomhex_iv
 *                                           (b2ed30b9-…), both private. Caches: 2 on master, 1 on 4-0-stable.
 *   pypug/django-mango  id 107495  public   nobody has rights. V2 body = the repos-list fixture entry
 *                                           (last build 4125823 is not in the fake; no github_language).
 *   rkh/secret-project  id 9001    private  rkh admin; `active` shown as the string "true".
 *
 * Builds and jobs
 *   4125095  rails/rails #6180, failed (finished_at null, as in the fixture), push on master, commit 1201631,
 *            jobs 4125096 … 4125107 (#6180.1 … #6180.12) from travisrb_v2_build_4125095_with_jobs.json;
 *            4125096 (failed) and 4125097 (passed) as in their job fixtures.
 *            Log 3168318 of job 4125096: "$ export GEM=railties\n" (final). The other jobs have no log
 *            (GET /jobs/{id}/log answers the empty-log fixture, text/plain redirects to the archive, 404 there).
 *   9100     rkh/secret-project #1, passed, job 9101 (#1.1, log 9102: "secret log\n").
 *
 * Requests: one accepted per build, plus one rejected on rails/rails (branch gh-pages).
 * Accounts: rkh (fixture: no id, repos_count 200); organization 'rails' (id 9200), rkh member, not admin.
 * Broadcasts: id 1 "Hello!".
 *
 * Every id a test does not choose comes from one sequence starting at 10,000,001, shared by all kinds of
 * records, so seeded ids never collide and a build id never finds a job.
 */
import { fixture } from './fixtures.js';
import type { CiConfig } from './records.js';
import type { FakeCiState, JobInput } from './state.js';

type Obj = Record<string, unknown>;

function obj(value: unknown): Obj {
  if (typeof value !== 'object' || value === null || Array.isArray(value))
    throw new Error('fixture: not an object');
  return value as Obj;
}

function str(o: Obj, key: string): string {
  const value = o[key];
  if (typeof value !== 'string') throw new Error(`fixture: ${key} is not a string`);
  return value;
}

function num(o: Obj, key: string): number {
  const value = o[key];
  if (typeof value !== 'number') throw new Error(`fixture: ${key} is not a number`);
  return value;
}

function strOrNull(o: Obj, key: string): string | null {
  return o[key] === null ? null : str(o, key);
}

function list(o: Obj, key: string): Obj[] {
  const value = o[key];
  if (!Array.isArray(value)) throw new Error(`fixture: ${key} is not a list`);
  return value.map(obj);
}

function jobInput(job: Obj): JobInput {
  return {
    id: num(job, 'id'),
    number: str(job, 'number'),
    state: str(job, 'state'),
    config: obj(job.config) as CiConfig,
    startedAt: strOrNull(job, 'started_at'),
    finishedAt: strOrNull(job, 'finished_at'),
    queue: str(job, 'queue'),
    allowFailure: job.allow_failure === true,
    tags: str(job, 'tags'),
    logId: num(job, 'log_id'),
    log: null,
  };
}

export function seedWorld(state: FakeCiState): void {
  const user = obj(obj(fixture('travisrb_v2_user.json')).user);
  state.addUser({
    login: str(user, 'login'),
    id: num(user, 'id'),
    name: str(user, 'name'),
    email: str(user, 'email'),
    gravatarId: str(user, 'gravatar_id'),
    locale: str(user, 'locale'),
    syncedAt: str(user, 'synced_at'),
    correctScopes: user.correct_scopes === true,
    createdAt: '2011-08-14T10:06:46Z',
  });
  state.addGithubToken('github-token-rkh', 'rkh');
  state.addUser({ login: 'visitor', id: 4242, name: 'Vera Visitor', createdAt: '2020-02-02T12:00:00Z' });
  seedAccounts(state);

  const rails = obj(obj(fixture('travisrb_v2_repo_rails.json')).repo);
  state.addRepo({
    slug: str(rails, 'slug'),
    id: num(rails, 'id'),
    description: str(rails, 'description'),
    githubLanguage: str(rails, 'github_language'),
    activeField: 'absent',
  });
  state.grant('rkh', 891, 'admin');
  seedRailsBuild(state);

  const [mango] = list(obj(fixture('travisrb_v2_repos_list.json')), 'repos');
  if (!mango) throw new Error('fixture: empty repos list');
  state.addRepo({
    slug: str(mango, 'slug'),
    id: num(mango, 'id'),
    description: str(mango, 'description'),
    githubLanguage: undefined,
    activeField: 'absent',
    lastBuild: {
      id: num(mango, 'last_build_id'),
      number: str(mango, 'last_build_number'),
      state: str(mango, 'last_build_state'),
      duration: num(mango, 'last_build_duration'),
      startedAt: strOrNull(mango, 'last_build_started_at'),
      finishedAt: strOrNull(mango, 'last_build_finished_at'),
    },
  });

  state.addRepo({
    slug: 'rkh/secret-project',
    id: 9001,
    private: true,
    activeField: 'string',
    description: 'Not for everyone',
  });
  state.grant('rkh', 9001, 'admin');
  state.addBuild(9001, {
    id: 9100,
    number: 1,
    state: 'passed',
    message: 'Secret sauce',
    authorName: 'Konstantin Haase',
    authorEmail: 'konstantin.haase@gmail.com',
    startedAt: '2024-01-01T10:00:00Z',
    finishedAt: '2024-01-01T10:05:00Z',
    duration: 300,
    jobs: [{ id: 9101, logId: 9102, log: 'secret log\n' }],
  });

  seedRepoExtras(state);
}

function seedRailsBuild(state: FakeCiState): void {
  const body = obj(fixture('travisrb_v2_build_4125095_with_jobs.json'));
  const build = obj(body.build);
  const commit = obj(body.commit);
  state.addCommit(891, {
    id: num(commit, 'id'),
    sha: str(commit, 'sha'),
    branch: str(commit, 'branch'),
    message: str(commit, 'message'),
    committedAt: str(commit, 'committed_at'),
    authorName: str(commit, 'author_name'),
    authorEmail: str(commit, 'author_email'),
    committerName: str(commit, 'committer_name'),
    committerEmail: str(commit, 'committer_email'),
    compareUrl: str(commit, 'compare_url'),
  });
  // The single-job fixtures are what GET /jobs/{id} answered; they win over the build's copies.
  const singleJobs = ['travisrb_v2_job_4125096_failed.json', 'travisrb_v2_job_4125097_passed.json'].map(
    (name) => obj(obj(fixture(name)).job),
  );
  const jobs = list(body, 'jobs').map((job) => singleJobs.find((single) => single.id === job.id) ?? job);
  state.addBuild(891, {
    id: num(build, 'id'),
    number: str(build, 'number'),
    state: str(build, 'state'),
    commitId: num(commit, 'id'),
    config: obj(build.config) as CiConfig,
    startedAt: strOrNull(build, 'started_at'),
    finishedAt: strOrNull(build, 'finished_at'),
    duration: num(build, 'duration'),
    jobs: jobs.map(jobInput),
  });
  const log = obj(obj(fixture('travisrb_v2_log_3168318.json')).log);
  state.setLog(num(log, 'job_id'), str(log, 'body'), { final: true });
}

function seedAccounts(state: FakeCiState): void {
  const [account] = list(obj(fixture('travisrb_v2_accounts.json')), 'accounts');
  if (!account) throw new Error('fixture: no account');
  state.addAccount({
    login: str(account, 'login'),
    name: str(account, 'name'),
    type: 'user',
    reposCount: num(account, 'repos_count'),
  });
  state.addAccount({ login: 'rails', name: 'Ruby on Rails', type: 'organization', id: 9200 });
  state.addMember('rails', 'rkh', { admin: false });
}

function seedRepoExtras(state: FakeCiState): void {
  state.addRequest(891, {
    result: 'rejected',
    message: 'Branch "gh-pages" not included per configuration.',
    branch: 'gh-pages',
    commitMessage: 'Update docs site',
  });

  const key = obj(fixture('travisrb_v2_repo_key.json'));
  state.setRepoKey(891, {
    publicKeyPem: str(key, 'key'),
    privateKeyPem: null,
    fingerprint: str(key, 'fingerprint'),
  });

  for (const envVar of list(obj(fixture('travisrb_v2_env_vars_list.json')), 'env_vars')) {
    state.addEnvVar(num(envVar, 'repository_id'), {
      id: str(envVar, 'id'),
      name: str(envVar, 'name'),
      value: str(envVar, 'value'),
      public: envVar.public === true,
    });
  }

  const lastModified = '2013-01-13T16:20:00Z';
  state.addCache(891, {
    branch: 'master',
    slug: 'cache--rvm-1.9.3--gemfile-Gemfile',
    size: 18_874_368,
    lastModified,
  });
  state.addCache(891, {
    branch: 'master',
    slug: 'cache--rvm-2.0.0--gemfile-Gemfile',
    size: 19_922_944,
    lastModified,
  });
  state.addCache(891, {
    branch: '4-0-stable',
    slug: 'cache--rvm-2.0.0--gemfile-Gemfile',
    size: 17_825_792,
    lastModified,
  });

  const [broadcast] = list(obj(fixture('travisrb_v2_broadcasts.json')), 'broadcasts');
  if (broadcast) state.addBroadcast(str(broadcast, 'message'), { id: num(broadcast, 'id') });
}
