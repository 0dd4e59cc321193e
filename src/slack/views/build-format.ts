import type { Build, Commit, Job } from '../../ci/schemas.js';
import { buildWebUrl, jobWebUrl } from '../../ci/web-links.js';
import { breakFences } from '../text/code-block.js';
import { escapeMrkdwn, inlineCode, link, singleLine } from '../text/escape.js';
import { formatDuration, timeAgo } from '../text/format.js';
import { truncate } from '../text/truncate.js';
import type { Site } from './site.js';

/**
 * Pieces of build and job messages shared by the list, the card, the job list and the log. Each
 * returns mrkdwn with outside text (branches, commit messages, names, configuration) escaped.
 */

export const buildUrl = (site: Site, slug: string, buildId: number) =>
  buildWebUrl(site.webUrl, slug, buildId);
export const jobUrl = (site: Site, slug: string, jobId: number) => jobWebUrl(site.webUrl, slug, jobId);

/** The first non-empty line of a commit message, on one line, cut to `max` (not escaped). */
export function commitSubject(message: string | null | undefined, max = 100): string {
  const first = (message ?? '').split('\n').find((line) => line.trim() !== '') ?? '';
  return truncate(singleLine(first), max);
}

/** GitHub's page of a pull request, from the repository slug. */
export function pullRequestUrl(slug: string, number: string | number): string | undefined {
  if (!/^[^/\s]+\/[^/\s]+$/.test(slug) || !/^[0-9]+$/.test(String(number))) return undefined;
  const [owner = '', name = ''] = slug.split('/');
  return `https://github.com/${encodeURIComponent(owner)}/${encodeURIComponent(name)}/pull/${number}`;
}

/** `push`, `pull_request`, `cron`, `api` …: the build's own field, or what `pull_request` implies. */
export function eventOf(build: Build): string {
  return build.event_type ?? (build.pull_request ? 'pull_request' : 'push');
}

/**
 * Where the build comes from: "`main` · push" (the branch linked to the compare view when there is
 * one), "pull request #12 “Fix it” into `main`" (linked to the pull request), "tag `v1.0`", cron, api.
 */
export function originText(slug: string, build: Build, commit: Commit | undefined): string {
  const event = eventOf(build);
  const branch = commit?.branch ?? undefined;
  if (event === 'pull_request') {
    const number = build.pull_request_number ?? commit?.pull_request_number ?? undefined;
    const title = build.pull_request_title
      ? ` “${escapeMrkdwn(truncate(singleLine(build.pull_request_title), 80))}”`
      : '';
    const url = number === undefined ? undefined : pullRequestUrl(slug, number);
    const label = number === undefined ? 'pull request' : `pull request #${number}`;
    const into = branch ? ` into ${inlineCode(truncate(branch, 60))}` : '';
    return `${url ? link(url, label) : label}${title}${into}`;
  }
  const where = commit?.tag
    ? `tag ${inlineCode(truncate(commit.tag, 60))}`
    : branch
      ? branchLink(branch, commit?.compare_url ?? undefined)
      : 'unknown branch';
  return `${where} · ${escapeMrkdwn(event.replace(/_/g, ' '))}`;
}

function branchLink(branch: string, compareUrl: string | undefined): string {
  const name = truncate(branch, 60);
  return compareUrl ? link(compareUrl, name) : inlineCode(name);
}

/** "_Fix the thing_ · Ada Lovelace", escaped; empty when there is no commit. */
export function commitText(commit: Commit | undefined, maxSubject = 100): string {
  if (!commit) return '';
  const subject = commitSubject(commit.message, maxSubject);
  const author = commit.author_name ? escapeMrkdwn(truncate(singleLine(commit.author_name), 60)) : '';
  // A ``` in a commit message must not open a code block that swallows the rest of the text.
  const parts = [subject ? `_${breakFences(escapeMrkdwn(subject))}_` : '', author].filter((p) => p !== '');
  return parts.join(' · ');
}

interface Timed {
  state: string;
  duration?: number | null | undefined;
  started_at?: string | null | undefined;
  finished_at?: string | null | undefined;
}

/**
 * "1h 23m · finished 3 hours ago", "running for 4m", "waiting to start"; without `ago`, a finished
 * item shows its duration only (job lines under a build that already says when it finished).
 */
export function timingText(item: Timed, now: Date, options: { ago?: boolean } = {}): string {
  const started = item.started_at ? Date.parse(item.started_at) : Number.NaN;
  const finished = item.finished_at ? Date.parse(item.finished_at) : Number.NaN;
  if (item.state === 'started') {
    return Number.isNaN(started)
      ? 'running'
      : `running for ${formatDuration((now.getTime() - started) / 1000)}`;
  }
  if (['created', 'received', 'queued', 'ready'].includes(item.state)) return 'waiting to start';
  const seconds =
    item.duration ??
    (Number.isNaN(started) || Number.isNaN(finished) ? undefined : (finished - started) / 1000);
  const parts = [
    seconds === undefined ? '' : formatDuration(seconds),
    item.finished_at && options.ago !== false ? `finished ${timeAgo(item.finished_at, now)}` : '',
  ];
  return parts.filter((p) => p !== '').join(' · ');
}

/** Keys that name a language version in a job's configuration. */
const VERSION_KEYS = [
  'rvm',
  'ruby',
  'node_js',
  'python',
  'php',
  'go',
  'jdk',
  'perl',
  'scala',
  'rust',
  'dart',
  'elixir',
  'otp_release',
  'ghc',
  'julia',
  'r',
  'crystal',
  'd',
  'dotnet',
  'mono',
  'haxe',
  'swift',
  'elm',
  'smalltalk',
  'osx_image',
];

function scalarText(value: unknown): string | undefined {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  if (Array.isArray(value)) {
    const items = value.map(scalarText).filter((v): v is string => v !== undefined);
    return items.length > 0 ? items.join(', ') : undefined;
  }
  return undefined;
}

/**
 * The parts of a job's configuration that tell matrix jobs apart: its name, language version, env,
 * and the OS or architecture when not the default. Plain text (not escaped), cut to `max`.
 */
export function jobConfigSummary(config: Job['config'], max = 120): string {
  if (!config) return '';
  const parts: string[] = [];
  const name = scalarText(config.name);
  if (name) parts.push(name);
  for (const key of VERSION_KEYS) {
    const version = scalarText(config[key]);
    if (version) parts.push(`${key} ${version}`);
  }
  const env = envText(config.env);
  if (env) parts.push(env);
  const os = scalarText(config.os);
  if (os && os !== 'linux') parts.push(os);
  const arch = scalarText(config.arch);
  if (arch && arch !== 'amd64') parts.push(arch);
  return truncate(singleLine(parts.join(' · ')), max);
}

/** A job's env: a string, a list of strings, or `{jobs|matrix: …}`; secure entries are skipped. */
function envText(env: unknown): string | undefined {
  if (typeof env === 'string') return env;
  if (Array.isArray(env)) {
    const strings = env.filter((e): e is string => typeof e === 'string');
    return strings.length > 0 ? strings.join(' ') : undefined;
  }
  if (typeof env === 'object' && env !== null) {
    const record = env as Record<string, unknown>;
    return envText(record.jobs) ?? envText(record.matrix);
  }
  return undefined;
}
