import { BUILD_EVENTS, type BuildEvent, type SubscriptionFilters } from '../../notify/filter-types.js';
import { inlineCode } from '../text/escape.js';
import { truncate } from '../text/truncate.js';

/**
 * The filters of `/ci subscribe`: `branches:main,release/*`, `events:push,pull_request,cron,api`,
 * `only:failures` or `only:changes`, `exclude-authors:dependabot*,renovate*`, `threads:off`,
 * `started:on`. `key=value` is read like `key:value`.
 */

export { BUILD_EVENTS, type BuildEvent, type SubscriptionFilters };

export const FILTER_SUMMARIES: readonly [syntax: string, summary: string][] = [
  ['branches:main,release/*', 'only these branches (globs)'],
  ['events:push,pull_request,cron,api', 'only these build events'],
  ['only:failures', 'only failed and errored builds'],
  ['only:changes', 'only broken, fixed and still failing builds'],
  ['exclude-authors:dependabot*,renovate*', 'not builds by these authors (globs)'],
  ['threads:off', 'post failure logs in the channel, not in a thread'],
  ['started:on', 'also announce builds when they start'],
];

export type FiltersResult = { ok: true; filters: SubscriptionFilters } | { ok: false; reason: string };

const GLOB = /^[^\s,]{1,255}$/;
const shown = (s: string) => inlineCode(truncate(s, 80));

function list(key: string, value: string): string[] | string {
  const items = value.split(',').map((v) => v.trim());
  if (items.some((v) => !GLOB.test(v))) return `${shown(`${key}:${value}`)} needs a comma-separated list.`;
  return items;
}

function onOff(key: string, value: string): boolean | string {
  const v = value.toLowerCase();
  if (v === 'on') return true;
  if (v === 'off') return false;
  return `${shown(`${key}:${value}`)} must be ${key}:on or ${key}:off.`;
}

/** Applies one `key:value` filter; returns a reason when it is wrong. */
function apply(filters: SubscriptionFilters, key: string, value: string): string | undefined {
  switch (key) {
    case 'branches':
    case 'exclude-authors': {
      const items = list(key, value);
      if (typeof items === 'string') return items;
      if (key === 'branches') filters.branches = items;
      else filters.excludeAuthors = items;
      return undefined;
    }
    case 'events': {
      const items = list(key, value);
      if (typeof items === 'string') return items;
      const events: BuildEvent[] = [];
      for (const item of items) {
        const event = BUILD_EVENTS.find((e) => e === item.toLowerCase());
        if (!event) return `${shown(item)} is not a build event: use ${BUILD_EVENTS.join(', ')}.`;
        events.push(event);
      }
      filters.events = events;
      return undefined;
    }
    case 'only': {
      const v = value.toLowerCase();
      if (v !== 'failures' && v !== 'changes')
        return `${shown(`only:${value}`)} must be only:failures or only:changes.`;
      filters.only = v;
      return undefined;
    }
    case 'threads':
    case 'started': {
      const on = onOff(key, value);
      if (typeof on === 'string') return on;
      if (key === 'threads') filters.threads = on;
      else filters.started = on;
      return undefined;
    }
    default:
      return `${shown(key)} is not a filter: use ${FILTER_SUMMARIES.map(([syntax]) => syntax.split(':')[0]).join(', ')}.`;
  }
}

export function readFilters(tokens: readonly string[]): FiltersResult {
  const filters: SubscriptionFilters = {};
  const seen = new Set<string>();
  for (const token of tokens) {
    const match = /^([A-Za-z-]+)[:=](.*)$/s.exec(token);
    const key = match?.[1]?.toLowerCase();
    const value = match?.[2] ?? '';
    if (key === undefined) {
      return {
        ok: false,
        reason: `${shown(token)} is not a filter: write it as key:value, e.g. only:failures.`,
      };
    }
    if (seen.has(key)) return { ok: false, reason: `The filter ${shown(key)} is given twice.` };
    seen.add(key);
    const problem = apply(filters, key, value);
    if (problem !== undefined) return { ok: false, reason: problem };
  }
  return { ok: true, filters };
}

/** The filters written back as `/ci subscribe` takes them; `readFilters` reads the result back. */
export function formatFilters(f: SubscriptionFilters): string[] {
  const out: string[] = [];
  if (f.branches) out.push(`branches:${f.branches.join(',')}`);
  if (f.events) out.push(`events:${f.events.join(',')}`);
  if (f.only) out.push(`only:${f.only}`);
  if (f.excludeAuthors) out.push(`exclude-authors:${f.excludeAuthors.join(',')}`);
  if (f.threads !== undefined) out.push(`threads:${f.threads ? 'on' : 'off'}`);
  if (f.started !== undefined) out.push(`started:${f.started ? 'on' : 'off'}`);
  return out;
}
