import { z } from 'zod';
import type { CiSession } from './client.js';
import { badRequest } from './errors.js';
import { idSegment } from './paths.js';
import {
  type BuildRequest,
  type Commit,
  commitSchema,
  requestSchema,
  sideloadedCommitSchema,
} from './schemas.js';

export const REQUESTS_DEFAULT_LIMIT = 25;
export const REQUESTS_MAX_LIMIT = 100;

export type RequestsQuery = ({ repositoryId: number } | { slug: string }) & {
  /** Default 25, at most 100. */
  limit?: number;
  /** A request id: list requests before it. */
  olderThan?: number;
};

/** 4.14 GET /requests — repository_id or slug is required. */
export async function listRequests(
  ci: CiSession,
  query: RequestsQuery,
): Promise<{ requests: BuildRequest[]; commits: Commit[] }> {
  const { repositoryId, slug } = query as { repositoryId?: number; slug?: string };
  if ((repositoryId === undefined) === (slug === undefined)) {
    throw badRequest('GET /requests needs exactly one of repository_id or slug');
  }
  if (repositoryId !== undefined) idSegment(repositoryId, 'repository id');
  if (query.olderThan !== undefined) idSegment(query.olderThan, 'older_than');
  const limit = query.limit ?? REQUESTS_DEFAULT_LIMIT;
  if (!Number.isInteger(limit) || limit < 1 || limit > REQUESTS_MAX_LIMIT) {
    throw badRequest(`limit must be between 1 and ${REQUESTS_MAX_LIMIT}`);
  }
  return ci.json(
    {
      method: 'GET',
      path: '/requests',
      query: {
        repository_id: repositoryId,
        slug,
        limit,
        older_than: query.olderThan,
      },
    },
    z.looseObject({ requests: z.array(requestSchema), commits: z.array(commitSchema).default([]) }),
  );
}

/** 4.14 GET /requests/{id} — with its commit. */
export async function getRequest(
  ci: CiSession,
  requestId: number,
): Promise<{ request: BuildRequest; commit?: Commit }> {
  return ci.json(
    { method: 'GET', path: `/requests/${idSegment(requestId, 'request id')}` },
    z.looseObject({ request: requestSchema, commit: sideloadedCommitSchema }),
  );
}
