import type { SubscriptionFilters } from './filter-types.js';

/**
 * Whether a build should produce (or update) a channel's notification, from the subscription's
 * filters. Pure functions: the watcher and notifier call them, tests call them directly.
 *
 * When a message appears (a product decision):
 * - Without `started:on`, a build's message appears when the build finishes (passed, failed,
 *   errored, canceled), as the service's own chat notification does.
 * - With `started:on`, it appears as soon as the build is created or starts, and is edited as the
 *   build moves to its end.
 * - `only:failures` and `only:changes` can only be judged once a build has finished, so with either
 *   of them a running build is never posted and `started:on` has no effect.
 *
 * Globs (`branches:` and `exclude-authors:`): `*` matches any run of characters, `/` included, so
 * `release/*` matches `release/1.2` and `release/1.2/hotfix`, and `*` alone matches everything.
 * Every other character stands for itself (`?` and `[` are not special). Branch globs are
 * case-sensitive, as git branch names are; author globs ignore case.
 *
 * Which branch a build is on is the service's `branch` of its commit: for a pull request build that
 * is the branch the pull request targets, so `branches:main` also covers pull requests into main.
 */

export const FAILED_STATES: ReadonlySet<string> = new Set(['failed', 'errored']);
const FINISHED_STATES: ReadonlySet<string> = new Set(['passed', 'failed', 'errored', 'canceled']);

/** What the filters look at; the notifier fills it from the build and its commit. */
export interface BuildFacts {
  state: string;
  branch?: string | null;
  /** The service's `event_type` (push, pull_request, cron, api); derived from `pullRequest` when missing. */
  eventType?: string | null;
  pullRequest?: boolean;
  authorName?: string | null;
  authorEmail?: string | null;
  committerName?: string | null;
}

/** How a finished build compares with the previous finished build of its branch. */
export type BuildChange = 'broken' | 'fixed' | 'still_failing';

export interface NotifyDecision {
  post: boolean;
  /** Why, in a few words (for logs and tests). */
  reason: string;
  /** Set for a finished build whose state changed (or stayed failing) against the previous one. */
  change?: BuildChange;
}

export function isFinishedState(state: string): boolean {
  return FINISHED_STATES.has(state);
}

/** The build's event: its `event_type`, or `pull_request`/`push` from the pull request flag. */
export function buildEventOf(build: Pick<BuildFacts, 'eventType' | 'pullRequest'>): string {
  if (build.eventType) return build.eventType;
  return build.pullRequest ? 'pull_request' : 'push';
}

/**
 * broken: the previous finished build passed and this one failed or errored; fixed: the reverse;
 * still failing: both failed or errored. Without a usable previous state (none, or canceled, which
 * says nothing about the code), a failure counts as broken and a pass as no change.
 */
export function classifyChange(state: string, previousFinishedState?: string): BuildChange | undefined {
  const failed = FAILED_STATES.has(state);
  const previous =
    previousFinishedState === 'passed' || FAILED_STATES.has(previousFinishedState ?? '')
      ? previousFinishedState
      : undefined;
  if (failed) return previous !== undefined && FAILED_STATES.has(previous) ? 'still_failing' : 'broken';
  if (state === 'passed' && previous !== undefined && FAILED_STATES.has(previous)) return 'fixed';
  return undefined;
}

/** True when a subscription's message appears as soon as a build starts (see the top of this file). */
export function announcesStart(filters: SubscriptionFilters): boolean {
  return filters.started === true && filters.only === undefined;
}

/**
 * Whether a build's notification should exist (be posted, or keep being edited) for a
 * subscription with these filters. `previousFinishedState` is the state of the previous finished
 * build on the same branch; only `only:changes` needs it.
 */
export function shouldNotify(
  filters: SubscriptionFilters,
  build: BuildFacts,
  previousFinishedState?: string,
): NotifyDecision {
  const branch = build.branch ?? '';
  if (filters.branches && !filters.branches.some((glob) => globMatches(glob, branch))) {
    return { post: false, reason: `branch ${branch || '(none)'} is not in branches:${filters.branches}` };
  }
  const event = buildEventOf(build);
  if (filters.events && !filters.events.some((e) => e === event)) {
    return { post: false, reason: `event ${event} is not in events:${filters.events}` };
  }
  const excluded = excludedAuthor(filters.excludeAuthors ?? [], build);
  if (excluded !== undefined) return { post: false, reason: `author ${excluded} is excluded` };

  const change = classifyChange(build.state, previousFinishedState);
  if (!isFinishedState(build.state)) {
    return announcesStart(filters)
      ? { post: true, reason: 'started:on announces running builds' }
      : { post: false, reason: 'waiting for the build to finish' };
  }
  if (filters.only === 'failures' && !FAILED_STATES.has(build.state)) {
    return { post: false, reason: `only:failures and the build ${build.state}` };
  }
  if (filters.only === 'changes' && change === undefined) {
    return { post: false, reason: `only:changes and the build ${build.state} without a change` };
  }
  return change === undefined
    ? { post: true, reason: `the build ${build.state}` }
    : { post: true, reason: `the build ${build.state} (${change})`, change };
}

/** Where failure logs go: a thread under the build's message, or the channel (`threads:off`). */
export function placement(filters: SubscriptionFilters): 'thread' | 'channel' {
  return filters.threads === false ? 'channel' : 'thread';
}

/** The first of author name, author e-mail and committer name that an exclude glob matches. */
function excludedAuthor(globs: readonly string[], build: BuildFacts): string | undefined {
  const who = [build.authorName, build.authorEmail, build.committerName].filter(
    (value): value is string => typeof value === 'string' && value !== '',
  );
  return who.find((value) => globs.some((glob) => globMatches(glob, value, { ignoreCase: true })));
}

/**
 * `*` matches any run of characters (`/` included), every other character itself. At most
 * (glob length × text length) steps, without a regular expression, so a glob with many stars
 * cannot make matching explode.
 */
export function globMatches(glob: string, text: string, options: { ignoreCase?: boolean } = {}): boolean {
  const pattern = options.ignoreCase ? glob.toLowerCase() : glob;
  const subject = options.ignoreCase ? text.toLowerCase() : text;
  let p = 0;
  let s = 0;
  let starAt = -1;
  let resumeAt = 0;
  while (s < subject.length) {
    if (p < pattern.length && pattern[p] === '*') {
      starAt = p++;
      resumeAt = s;
    } else if (p < pattern.length && pattern[p] === subject[s]) {
      p++;
      s++;
    } else if (starAt !== -1) {
      p = starAt + 1;
      s = ++resumeAt;
    } else {
      return false;
    }
  }
  while (p < pattern.length && pattern[p] === '*') p++;
  return p === pattern.length;
}
