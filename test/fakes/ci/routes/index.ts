/** Every V2.1 route, in matching order: `/repos/:repo` alone comes last so it swallows nothing. */
import type { Route } from '../router.js';
import { buildRoutes } from './builds.js';
import { envVarRoutes } from './env-vars.js';
import { jobRoutes } from './jobs.js';
import { lintRoutes } from './lint.js';
import { pusherRoutes } from './pusher.js';
import { hookRoutes, repoKeyRoutes, repoRoutes } from './repos.js';
import { requestRoutes } from './requests.js';
import { rootRoutes } from './root.js';
import { settingsRoutes } from './settings.js';
import { userRoutes } from './users.js';

export const V2_ROUTES: readonly Route[] = [
  ...rootRoutes,
  ...userRoutes,
  ...pusherRoutes,
  ...lintRoutes,
  ...hookRoutes,
  ...buildRoutes,
  ...jobRoutes,
  ...requestRoutes,
  ...envVarRoutes,
  ...settingsRoutes,
  ...repoKeyRoutes,
  ...repoRoutes,
];
