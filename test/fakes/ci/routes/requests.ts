/** Requests (spec 4.14): `{requests, commits}` of one repository, newest first, 25 by default, 100 at most. */
import { ensureVisible, findRepo } from '../auth.js';
import { type Ctx, halt, json, notFound, pathId, queryInt, type Reply, v2Error } from '../http.js';
import { type Route, route } from '../router.js';
import { commitJson, requestJson } from '../serialize.js';

const DEFAULT_LIMIT = 25;
const MAX_LIMIT = 100;

function listRequests(ctx: Ctx): Reply {
  const repoRef = ctx.query.get('repository_id') ?? ctx.query.get('slug');
  if (repoRef === null)
    return v2Error(400, 'missing_parameters', 'GET /requests needs repository_id or slug');
  const repo = findRepo(ctx, repoRef);
  ensureVisible(ctx, repo, { requests: [], commits: [] });
  const limit = Math.min(queryInt(ctx.query, 'limit') ?? DEFAULT_LIMIT, MAX_LIMIT);
  const olderThan = queryInt(ctx.query, 'older_than');
  const requests = [...ctx.state.requests.values()]
    .filter((r) => r.repositoryId === repo.id && (olderThan === undefined || r.id < olderThan))
    .sort((a, b) => b.id - a.id)
    .slice(0, limit);
  const commitIds = [...new Set(requests.map((r) => r.commitId))];
  return json(200, {
    requests: requests.map(requestJson),
    commits: commitIds.flatMap((id) => ctx.state.getCommit(id) ?? []).map(commitJson),
  });
}

function getRequest(ctx: Ctx): Reply {
  const request = ctx.state.getRequest(pathId(ctx)) ?? halt(notFound());
  const repo = ctx.state.getRepo(request.repositoryId) ?? halt(notFound());
  ensureVisible(ctx, repo, {});
  const commit = ctx.state.getCommit(request.commitId);
  return json(200, { request: requestJson(request), commit: commit ? commitJson(commit) : null });
}

export const requestRoutes: Route[] = [
  route('GET', '/requests', listRequests),
  route('GET', '/requests/:id', getRequest),
];
