/** POST /lint (parameter `content`, or the raw body) and PUT /lint (raw YAML body), spec 4.19. */
import { asString, bodyObject, type Ctx, json, type Reply } from '../http.js';
import { lintConfig } from '../lint-check.js';
import { type Route, route } from '../router.js';

/** Like the real endpoint: the `content` parameter when given, the request body otherwise. */
function lint(ctx: Ctx): Reply {
  const content = asString(bodyObject(ctx).content) ?? ctx.query.get('content') ?? ctx.body;
  return json(200, { lint: { warnings: lintConfig(content) } });
}

export const lintRoutes: Route[] = [route('POST', '/lint', lint), route('PUT', '/lint', lint)];
