/** Builds and branches (spec 4.4, 4.6), with cancel and restart as the real service answers them. */
import { ensureVisible, ensureWritable, findRepo, visibleRepo } from '../auth.js';
import {
  type Ctx,
  halt,
  idList,
  json,
  notFound,
  pathId,
  queryInt,
  queryList,
  type Reply,
  v2Error,
} from '../http.js';
import type { BuildRecord, RepoRecord } from '../records.js';
import { REQUIRED, type Route, route } from '../router.js';
import { buildJson, commitJson, jobJson } from '../serialize.js';

const PAGE_SIZE = 25;
const BRANCH_LIMIT = 25;
const EMPTY_LIST = { builds: [], jobs: [], commits: [] };

/** `{builds, jobs, commits}` with each commit once. */
function buildsReply(ctx: Ctx, builds: BuildRecord[]): Reply {
  const commitIds = [...new Set(builds.map((b) => b.commitId))];
  return json(200, {
    builds: builds.map(buildJson),
    jobs: builds.flatMap((b) => ctx.state.jobsOf(b)).map((job) => jobJson(job)),
    commits: commitIds.flatMap((id) => ctx.state.getCommit(id) ?? []).map(commitJson),
  });
}

/** number, after_number and event_type on one repository's builds; pages of 25, newest first. */
function repoBuilds(ctx: Ctx, repo: RepoRecord): Reply {
  const number = ctx.query.get('number');
  const afterNumber = queryInt(ctx.query, 'after_number');
  const eventType = ctx.query.get('event_type');
  const builds = ctx.state
    .buildsOf(repo.id)
    .filter(
      (b) =>
        (number === null || b.number === number) &&
        (afterNumber === undefined || Number(b.number) < afterNumber) &&
        (eventType === null || b.eventType === eventType),
    );
  return buildsReply(ctx, builds.slice(0, PAGE_SIZE));
}

/** GET /builds needs ids, repository_id or slug; number and after_number need a repository. */
function listBuilds(ctx: Ctx): Reply {
  const ids = idList(queryList(ctx.query, 'ids'), 'ids');
  const repoRef = ctx.query.get('repository_id') ?? ctx.query.get('slug');
  if (ids) {
    const builds = ids.flatMap((id) => {
      const build = ctx.state.getBuild(id);
      const repo = build && ctx.state.getRepo(build.repositoryId);
      return build && repo && ctx.state.can(ctx.user, repo, 'read') ? [build] : [];
    });
    return buildsReply(ctx, builds);
  }
  if (repoRef === null) {
    if (ctx.query.has('number') || ctx.query.has('after_number')) {
      return v2Error(400, 'invalid_parameters', 'number and after_number need repository_id or slug');
    }
    return v2Error(400, 'missing_parameters', 'GET /builds needs ids, repository_id or slug');
  }
  const repo = findRepo(ctx, repoRef);
  ensureVisible(ctx, repo, EMPTY_LIST);
  return repoBuilds(ctx, repo);
}

/** A build by id, on any repository or (with `:repo`) on that one only. */
function visibleBuild(ctx: Ctx, emptyBody: unknown): { build: BuildRecord; repo: RepoRecord } {
  const build = ctx.state.getBuild(pathId(ctx)) ?? halt(notFound());
  const repo = ctx.state.getRepo(build.repositoryId) ?? halt(notFound());
  if (ctx.params.repo !== undefined && findRepo(ctx, ctx.params.repo).id !== repo.id) halt(notFound());
  ensureVisible(ctx, repo, emptyBody);
  return { build, repo };
}

function getBuild(ctx: Ctx): Reply {
  const { build } = visibleBuild(ctx, {});
  const commit = ctx.state.getCommit(build.commitId);
  return json(200, {
    build: buildJson(build),
    commit: commit ? commitJson(commit) : null,
    jobs: ctx.state.jobsOf(build).map((job) => jobJson(job)),
  });
}

/** 204 without body; 422 `cant_cancel` once the build finished; 403 without push access. */
function cancelBuild(ctx: Ctx): Reply {
  const { build, repo } = visibleBuild(ctx, {});
  const id = build.id;
  ensureWritable(
    ctx,
    repo,
    'push',
    {},
    json(403, { error: { message: `You don't have access to cancel build(${id})` } }),
  );
  if (!ctx.state.cancelBuild(id)) {
    return json(422, { error: { message: `The build(${id}) can't be canceled`, code: 'cant_cancel' } });
  }
  return { status: 204 };
}

/** 202 `{result: true, flash}`; 400 `{result: false, flash}` while the build still runs. */
function restartBuild(ctx: Ctx): Reply {
  const { build, repo } = visibleBuild(ctx, {});
  ensureWritable(
    ctx,
    repo,
    'push',
    {},
    json(403, restartFlash(false, 'You do not seem to have sufficient permissions.')),
  );
  if (!ctx.state.restartBuild(build.id)) {
    return json(400, restartFlash(false, 'This build currently can not be restarted.'));
  }
  return json(202, restartFlash(true, 'The build was successfully restarted.'));
}

export function restartFlash(result: boolean, message: string): unknown {
  return { result, flash: [result ? { notice: message } : { error: message }] };
}

/** The latest build of each branch (pull requests left out), the 25 most recently built branches. */
function listBranches(ctx: Ctx): Reply {
  const repo = visibleRepo(ctx, { branches: [], commits: [] });
  const latest = latestPerBranch(ctx, repo).slice(0, BRANCH_LIMIT);
  const commits = latest.flatMap((b) => ctx.state.getCommit(b.commitId) ?? []);
  return json(200, { branches: latest.map(buildJson), commits: commits.map(commitJson) });
}

function getBranch(ctx: Ctx): Reply {
  const repo = visibleRepo(ctx, {});
  const build = latestPerBranch(ctx, repo).find(
    (b) => ctx.state.getCommit(b.commitId)?.branch === ctx.params.branch,
  );
  if (!build) return notFound();
  const commit = ctx.state.getCommit(build.commitId);
  return json(200, { branch: buildJson(build), commit: commit ? commitJson(commit) : null });
}

function latestPerBranch(ctx: Ctx, repo: RepoRecord): BuildRecord[] {
  const byBranch = new Map<string, BuildRecord>();
  const newestFirst = ctx.state.buildsOf(repo.id).sort((a, b) => b.id - a.id);
  for (const build of newestFirst) {
    const branch = ctx.state.getCommit(build.commitId)?.branch;
    if (branch !== undefined && build.eventType !== 'pull_request' && !byBranch.has(branch)) {
      byBranch.set(branch, build);
    }
  }
  return [...byBranch.values()];
}

export const buildRoutes: Route[] = [
  route('GET', '/builds', listBuilds),
  route('GET', '/builds/:id', getBuild),
  route('POST', '/builds/:id/cancel', cancelBuild, REQUIRED),
  route('POST', '/builds/:id/restart', restartBuild, REQUIRED),
  route('GET', '/repos/:repo/builds', (ctx) => repoBuilds(ctx, visibleRepo(ctx, EMPTY_LIST))),
  route('GET', '/repos/:repo/builds/:id', getBuild),
  route('GET', '/repos/:repo/branches', listBranches),
  route('GET', '/repos/:repo/branches/:branch', getBranch),
];
