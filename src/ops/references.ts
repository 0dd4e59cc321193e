import type { Deployment } from '../config.js';

/**
 * References to repositories, builds and jobs, as typed values. Use cases take these; the Slack
 * layer reads them from what people type (src/slack/refs.ts).
 */

export type RepoRef =
  | { kind: 'slug'; owner: string; name: string; slug: string }
  | { kind: 'id'; id: number };
/** What `subscribe`, `unsubscribe` and `migrate` accept: a repository, or `owner/*`. */
export type RepoTarget = { kind: 'repo'; repo: RepoRef } | { kind: 'owner'; owner: string };
export type BuildRef =
  | { kind: 'id'; id: number }
  | { kind: 'number'; repo: RepoRef; number: string }
  | { kind: 'branch'; repo: RepoRef; branch: string }
  | { kind: 'url'; deployment: Deployment; repo: RepoRef; id: number };
export type JobRef =
  | { kind: 'id'; id: number }
  /** `number` is the job number, e.g. `123.2`. */
  | { kind: 'number'; repo: RepoRef; number: string }
  | { kind: 'url'; deployment: Deployment; repo: RepoRef; id: number };
export type BuildOrJobRef = { type: 'build'; ref: BuildRef } | { type: 'job'; ref: JobRef };
