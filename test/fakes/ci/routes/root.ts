/** GET /, GET /config, POST /auth/github (spec 4.1, 4.2). */
import { asString, bodyObject, type Ctx, json, v2Error } from '../http.js';
import { type Route, route } from '../router.js';

const HOSTS = { com: 'travis-ci.com', org: 'travis-ci.org', enterprise: 'travis.example.com' } as const;

/** The provider token scopes the service asks for (spec section 5). */
export const GITHUB_SCOPES = ['read:org', 'user:email', 'repo_deployment', 'repo:status', 'write:repo_hook'];

function config(ctx: Ctx) {
  const { secret: _secret, ...pusher } = ctx.options.pusher;
  return json(200, {
    config: {
      host: HOSTS[ctx.options.deployment],
      shorten_host: 'trvs.io',
      pusher,
      github: { api_url: 'https://api.github.com', scopes: GITHUB_SCOPES },
    },
  });
}

/** Exchanges a known provider token for the user's API token (the service keeps nothing of it). */
function authGithub(ctx: Ctx) {
  const githubToken = asString(bodyObject(ctx).github_token) ?? ctx.query.get('github_token') ?? undefined;
  if (!githubToken) return v2Error(422, 'missing_param', "Must pass 'github_token' parameter");
  const user = ctx.state.userByGithubToken(githubToken);
  const token = user?.tokens[0];
  if (!token) return v2Error(403, 'not_a_travis_user', 'not a Travis user');
  return json(200, { access_token: token });
}

export const rootRoutes: Route[] = [
  route('GET', '/', () => json(200, { hello: 'world' })),
  route('GET', '/config', config),
  route('POST', '/auth/github', authGithub),
];
