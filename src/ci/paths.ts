import { badRequest } from './errors.js';

/** A repository as the API addresses it: numeric id, or slug `owner/name`. */
export type RepoKey = number | string;

const SLUG = /^[^/\s]+\/[^/\s]+$/;
/** `.` and `..` would be resolved away by URL parsing and address another resource (`/repos/a/..` is `/repos/`). */
const DOT_SEGMENT = /(^|\/)\.\.?(\/|$)/;

function checkSlug(repo: string): string {
  if (!SLUG.test(repo) || DOT_SEGMENT.test(repo)) throw badRequest('a repository slug looks like owner/name');
  return repo;
}

/** One path segment of free text (a branch name); `.` and `..` are refused for the reason above. */
export function textSegment(value: string, what: string): string {
  if (value === '' || value === '.' || value === '..') throw badRequest(`${what} cannot be "${value}"`);
  return encodeURIComponent(value);
}

function checkId(value: number, what: string): number {
  if (!Number.isSafeInteger(value) || value <= 0) throw badRequest(`${what} must be a positive integer`);
  return value;
}

/** Encodes one path segment; numeric ids are checked. */
export function idSegment(value: number, what = 'id'): string {
  return String(checkId(value, what));
}

/** `/repos/891` or `/repos/rails/rails`: the slug's slash is kept (reserved expansion). */
export function repoPath(repo: RepoKey): string {
  if (typeof repo === 'number') return `/repos/${idSegment(repo, 'repository id')}`;
  const [owner = '', name = ''] = checkSlug(repo).split('/');
  return `/repos/${encodeURIComponent(owner)}/${encodeURIComponent(name)}`;
}

/** V3: `/repo/891` or `/repo/rails%2Frails`: the slug's slash is percent-encoded. */
export function v3RepoPath(repo: RepoKey): string {
  if (typeof repo === 'number') return `/repo/${idSegment(repo, 'repository id')}`;
  return `/repo/${encodeURIComponent(checkSlug(repo))}`;
}

/** Settings, env vars and SSH keys are addressed by repository id only. */
export function requireRepoId(repo: number): number {
  return checkId(repo, 'repository id');
}
