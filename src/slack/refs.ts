import type { Deployment } from '../config.js';
import { inlineCode } from './text/escape.js';
import { truncate } from './text/truncate.js';

/**
 * References to repositories, builds and jobs as people write them in Slack, read into typed values.
 * Each `readX` gives either the reference or a reason (an mrkdwn sentence, safe to post); each
 * `parseX` is the same without the reason. Nothing here talks to the CI service: a reference is
 * only well formed, not known to exist.
 */

export type { BuildOrJobRef, BuildRef, JobRef, RepoRef, RepoTarget } from '../ops/references.js';

import type { BuildOrJobRef, BuildRef, JobRef, RepoRef, RepoTarget } from '../ops/references.js';

/** The web app's base URL per configured deployment (`DeploymentConfig.webUrl`). */
export type WebUrls = Partial<Record<Deployment, string>>;
export type RefResult<T> = { ok: true; ref: T } | { ok: false; reason: string };

const OWNER = /^[A-Za-z0-9][A-Za-z0-9-]{0,38}$/;
const NAME = /^[A-Za-z0-9._-]{1,100}$/;
const BUILD_NUMBER = /^[1-9][0-9]{0,14}$/;
const JOB_NUMBER = /^[1-9][0-9]{0,14}\.[1-9][0-9]{0,5}$/;

const REPO_FORMS = 'owner/name (or the repository id)';
const BUILD_FORMS = 'a build id, owner/name#123 (build number), owner/name@branch or a build link';
const JOB_FORMS = 'a job id, owner/name#123.2 (job number) or a job link';
const USE_HINT = "or set this channel's repository with `/ci use owner/name`";

/** User text quoted in a reason: escaped, on one line, and short. */
const shown = (s: string) => inlineCode(truncate(s, 80));
const ok = <T>(ref: T): RefResult<T> => ({ ok: true, ref });
const fail = <T>(reason: string): RefResult<T> => ({ ok: false, reason });
const parsed = <T>(result: RefResult<T>): T | undefined => (result.ok ? result.ref : undefined);

/** A positive integer that JavaScript holds exactly. */
function readId(s: string): number | undefined {
  if (!/^[0-9]{1,16}$/.test(s)) return undefined;
  const n = Number(s);
  return n > 0 && Number.isSafeInteger(n) ? n : undefined;
}

/** Removes Slack's link wrapping: `<https://x>` and `<https://x|label>` become `https://x`. */
function unwrap(s: string): string {
  const text = s.trim();
  if (!text.startsWith('<') || !text.endsWith('>')) return text;
  const inner = text.slice(1, -1);
  const bar = inner.indexOf('|');
  return (bar === -1 ? inner : inner.slice(0, bar))
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}

export function readRepoRef(input: string): RefResult<RepoRef> {
  const s = unwrap(input);
  if (s === '') return fail(`A repository is missing: write ${REPO_FORMS}.`);
  if (/^[0-9]+$/.test(s)) {
    const id = readId(s);
    return id === undefined ? fail(`${shown(s)} is not a repository id.`) : ok({ kind: 'id', id });
  }
  const parts = s.split('/');
  const [owner, name] = parts;
  if (parts.length !== 2 || owner === undefined || name === undefined) {
    return fail(`${shown(s)} is not a repository: write ${REPO_FORMS}.`);
  }
  if (!OWNER.test(owner)) {
    return fail(
      `${shown(owner)} is not a valid owner name (letters, digits and dashes, not starting with a dash).`,
    );
  }
  if (!NAME.test(name) || name === '.' || name === '..') {
    return fail(`${shown(name)} is not a valid repository name (letters, digits, \`.\`, \`-\` and \`_\`).`);
  }
  return ok({ kind: 'slug', owner, name, slug: `${owner}/${name}` });
}

export function parseRepoRef(s: string): RepoRef | undefined {
  return parsed(readRepoRef(s));
}

export function readRepoTarget(input: string): RefResult<RepoTarget> {
  const s = unwrap(input);
  if (s.endsWith('/*')) {
    const owner = s.slice(0, -2);
    return OWNER.test(owner)
      ? ok({ kind: 'owner', owner })
      : fail(
          `${shown(owner)} is not a valid owner name (letters, digits and dashes, not starting with a dash).`,
        );
  }
  const repo = readRepoRef(s);
  return repo.ok
    ? ok({ kind: 'repo', repo: repo.ref })
    : fail(`${repo.reason} Or use owner/* for every repository of an owner.`);
}

export function parseRepoTarget(s: string): RepoTarget | undefined {
  return parsed(readRepoTarget(s));
}

/** What git accepts as a branch name, roughly (`git check-ref-format`). */
export function isBranchName(b: string): boolean {
  return (
    b.length <= 255 &&
    !/[\s~^:?*[\\]/.test(b) &&
    !hasControlCharacter(b) &&
    !b.includes('..') &&
    !b.includes('@{') &&
    !b.includes('//') &&
    !/^[-/.]/.test(b) &&
    !/[/.]$/.test(b) &&
    !b.endsWith('.lock') &&
    b !== '@'
  );
}

/** C0 and C1 controls (Unicode's Cc), checked by code rather than `\p{Cc}`, which loads ICU data. */
function hasControlCharacter(text: string): boolean {
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

interface WebLink {
  type: 'build' | 'job';
  deployment: Deployment;
  repo: RepoRef;
  id: number;
}

/** The hosts a web app answers on: its own, and for `app.X` the older `X` and `www.X`. */
function hostAliases(host: string): string[] {
  const h = host.toLowerCase();
  return h.startsWith('app.') ? [h, h.slice(4), `www.${h.slice(4)}`] : [h];
}

function configuredBases(webUrls: WebUrls): { deployment: Deployment; hosts: string[]; path: string }[] {
  const bases = [];
  for (const [deployment, base] of Object.entries(webUrls) as [Deployment, string | undefined][]) {
    if (base === undefined) continue;
    try {
      const url = new URL(base);
      bases.push({ deployment, hosts: hostAliases(url.host), path: url.pathname.replace(/\/+$/, '') });
    } catch {
      // A web URL that is not a URL matches nothing; config.ts validates them at start.
    }
  }
  return bases;
}

/** Whether `s` is a link: it has a scheme, or starts with the host of a configured web app. */
function isLink(s: string, webUrls: WebUrls): boolean {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(s)) return true;
  const host = (s.split('/')[0] ?? '').toLowerCase();
  return host.includes('.') && configuredBases(webUrls).some((b) => b.hosts.includes(host));
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** `<web>/github/<owner>/<repo>/builds|jobs/<id>`, or the older form without `github/`. */
function readWebLink(s: string, webUrls: WebUrls): RefResult<WebLink> {
  let url: URL;
  try {
    url = new URL(/^[a-z][a-z0-9+.-]*:\/\//i.test(s) ? s : `https://${s}`);
  } catch {
    return fail(`${shown(s)} is not a valid link.`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fail(`${shown(s)} is not a web link.`);
  const bases = configuredBases(webUrls);
  const host = url.host.toLowerCase();
  const base = bases.find(
    (b) => b.hosts.includes(host) && (url.pathname === b.path || url.pathname.startsWith(`${b.path}/`)),
  );
  if (!base) {
    const known = bases.map((b) => b.hosts[0] ?? '').filter((h) => h !== '');
    return fail(
      known.length === 0
        ? 'Links cannot be used here: no CI deployment with a web address is configured.'
        : `${shown(url.host)} is not a CI deployment this app knows. Paste a link from ${known.join(' or ')}.`,
    );
  }
  let segments = url.pathname.slice(base.path.length).split('/').filter(Boolean).map(decodeSegment);
  if (segments[0] === 'github' && segments.length === 5) segments = segments.slice(1);
  const [owner, name, kind, idText] = segments;
  const id = idText === undefined ? undefined : readId(idText);
  if (segments.length !== 4 || (kind !== 'builds' && kind !== 'jobs') || id === undefined) {
    return fail(`${shown(s)} is not a link to a build or a job.`);
  }
  const repo = readRepoRef(`${owner}/${name}`);
  if (!repo.ok) return fail(repo.reason);
  return ok({ type: kind === 'builds' ? 'build' : 'job', deployment: base.deployment, repo: repo.ref, id });
}

/** Splits `owner/name#123` or `owner/name@branch` at the first `#` or `@`. */
function splitRepo(s: string): { repoText: string; sep: '#' | '@'; rest: string } | undefined {
  const at = s.search(/[#@]/);
  if (at === -1) return undefined;
  return { repoText: s.slice(0, at), sep: s[at] === '#' ? '#' : '@', rest: s.slice(at + 1) };
}

/** The repository before `#`/`@`, or the channel's when the text starts with `#`/`@`. */
function repoOf(repoText: string, whole: string, defaultRepo: RepoRef | undefined): RefResult<RepoRef> {
  if (repoText !== '') return readRepoRef(repoText);
  if (defaultRepo) return ok(defaultRepo);
  return fail(`${shown(whole)} needs a repository: write owner/name${whole}, ${USE_HINT}.`);
}

const linkRef = (web: WebLink) => ({
  kind: 'url' as const,
  deployment: web.deployment,
  repo: web.repo,
  id: web.id,
});

export function readBuildRef(input: string, webUrls: WebUrls, defaultRepo?: RepoRef): RefResult<BuildRef> {
  const s = unwrap(input);
  if (s === '') return fail(`A build is missing: write ${BUILD_FORMS}.`);
  if (isLink(s, webUrls)) {
    const web = readWebLink(s, webUrls);
    if (!web.ok) return web;
    return web.ref.type === 'build'
      ? ok(linkRef(web.ref))
      : fail(`${shown(s)} is a link to a job, not to a build.`);
  }
  if (/^[0-9]+$/.test(s)) {
    const id = readId(s);
    return id === undefined ? fail(`${shown(s)} is not a build id.`) : ok({ kind: 'id', id });
  }
  const parts = splitRepo(s);
  if (!parts) {
    if (JOB_NUMBER.test(s)) return fail(`${shown(s)} is a job number, not a build.`);
    if (parseRepoRef(s)) {
      return fail(
        `${shown(s)} is a repository, not a build: write ${s}#123 for build 123, or ${s}@main for the last build of main.`,
      );
    }
    return fail(`${shown(s)} is not a build: write ${BUILD_FORMS}.`);
  }
  const repo = repoOf(parts.repoText, s, defaultRepo);
  if (!repo.ok) return repo;
  if (parts.sep === '@') {
    if (parts.rest === '') return fail(`A branch name is missing after ${shown(s)}.`);
    if (!isBranchName(parts.rest)) return fail(`${shown(parts.rest)} is not a valid branch name.`);
    return ok({ kind: 'branch', repo: repo.ref, branch: parts.rest });
  }
  if (JOB_NUMBER.test(parts.rest)) return fail(`${shown(s)} is a job number, not a build number.`);
  if (!BUILD_NUMBER.test(parts.rest)) return fail(`${shown(`#${parts.rest}`)} is not a build number.`);
  return ok({ kind: 'number', repo: repo.ref, number: parts.rest });
}

export function parseBuildRef(s: string, webUrls: WebUrls, defaultRepo?: RepoRef): BuildRef | undefined {
  return parsed(readBuildRef(s, webUrls, defaultRepo));
}

export function readJobRef(input: string, webUrls: WebUrls, defaultRepo?: RepoRef): RefResult<JobRef> {
  const s = unwrap(input);
  if (s === '') return fail(`A job is missing: write ${JOB_FORMS}.`);
  if (isLink(s, webUrls)) {
    const web = readWebLink(s, webUrls);
    if (!web.ok) return web;
    return web.ref.type === 'job'
      ? ok(linkRef(web.ref))
      : fail(`${shown(s)} is a link to a build, not to a job.`);
  }
  if (/^[0-9]+$/.test(s)) {
    const id = readId(s);
    return id === undefined ? fail(`${shown(s)} is not a job id.`) : ok({ kind: 'id', id });
  }
  // A bare job number (`123.2`) reads as `#123.2`: with its dot it cannot be an id.
  const parts = JOB_NUMBER.test(s) ? { repoText: '', sep: '#', rest: s } : splitRepo(s);
  if (parts?.sep !== '#') return fail(`${shown(s)} is not a job: write ${JOB_FORMS}.`);
  const repo = repoOf(parts.repoText, parts.repoText === '' ? `#${parts.rest}` : s, defaultRepo);
  if (!repo.ok) return repo;
  if (BUILD_NUMBER.test(parts.rest)) {
    return fail(
      `${shown(s)} is a build number; a job number has the job after a dot, like #${parts.rest}.1.`,
    );
  }
  if (!JOB_NUMBER.test(parts.rest)) return fail(`${shown(`#${parts.rest}`)} is not a job number.`);
  return ok({ kind: 'number', repo: repo.ref, number: parts.rest });
}

export function parseJobRef(s: string, webUrls: WebUrls, defaultRepo?: RepoRef): JobRef | undefined {
  return parsed(readJobRef(s, webUrls, defaultRepo));
}

/**
 * A build or a job, told apart by form: a job number (`#123.2`, `123.2`) or a job link is a job;
 * everything else is read as a build, a bare id included (as the CI's own command-line client does).
 */
export function readBuildOrJobRef(
  input: string,
  webUrls: WebUrls,
  defaultRepo?: RepoRef,
): RefResult<BuildOrJobRef> {
  const s = unwrap(input);
  if (s === '') return fail(`A build or job is missing: write ${BUILD_FORMS}, or ${JOB_FORMS}.`);
  if (isLink(s, webUrls)) {
    const web = readWebLink(s, webUrls);
    if (!web.ok) return web;
    return ok(
      web.ref.type === 'job'
        ? { type: 'job', ref: linkRef(web.ref) }
        : { type: 'build', ref: linkRef(web.ref) },
    );
  }
  const parts = splitRepo(s);
  const numberText = parts === undefined ? s : parts.sep === '#' ? parts.rest : '';
  if (JOB_NUMBER.test(numberText)) {
    const job = readJobRef(s, webUrls, defaultRepo);
    return job.ok ? ok({ type: 'job', ref: job.ref }) : job;
  }
  const build = readBuildRef(s, webUrls, defaultRepo);
  return build.ok ? ok({ type: 'build', ref: build.ref }) : build;
}

export function parseBuildOrJobRef(
  s: string,
  webUrls: WebUrls,
  defaultRepo?: RepoRef,
): BuildOrJobRef | undefined {
  return parsed(readBuildOrJobRef(s, webUrls, defaultRepo));
}

/** `owner/name`, or the id; `parseRepoRef` reads it back. */
export function formatRepoRef(r: RepoRef): string {
  return r.kind === 'slug' ? r.slug : String(r.id);
}

export function formatRepoTarget(t: RepoTarget): string {
  return t.kind === 'owner' ? `${t.owner}/*` : formatRepoRef(t.repo);
}

/** The short form (`owner/name#12`, `owner/name@main`, the id); a link becomes its id. */
export function formatBuildRef(b: BuildRef): string {
  switch (b.kind) {
    case 'id':
    case 'url':
      return String(b.id);
    case 'number':
      return `${formatRepoRef(b.repo)}#${b.number}`;
    case 'branch':
      return `${formatRepoRef(b.repo)}@${b.branch}`;
  }
}

export function formatJobRef(j: JobRef): string {
  return j.kind === 'number' ? `${formatRepoRef(j.repo)}#${j.number}` : String(j.id);
}
