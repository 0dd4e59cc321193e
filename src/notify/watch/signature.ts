import { createHash } from 'node:crypto';
import type { Build, Job } from '../../ci/schemas.js';

/**
 * What makes two sightings of a build "the same": the build's state and times, and each job's.
 * Times are compared as whole seconds so a realtime payload and a REST answer of the same moment
 * agree however they format them; the times make a restarted build that ends as it did before a
 * new change. Shape: `<build part>#<hash of the jobs part>`, short enough to keep per build.
 */
export function buildSignature(build: Build, jobs: readonly Job[]): string {
  const jobPart = [...jobs]
    .sort((a, b) => a.id - b.id)
    .map((job) => `${job.id}:${job.state}:${seconds(job.started_at)}:${seconds(job.finished_at)}`)
    .join(',');
  const digest = createHash('sha1').update(jobPart).digest('base64url').slice(0, 16);
  return `${buildPart(build)}#${digest}`;
}

/** The build's own part of a signature (without its jobs). */
export function buildPart(build: Build): string {
  return `${build.state}|${seconds(build.started_at)}|${seconds(build.finished_at)}`;
}

export function buildPartOf(signature: string): string {
  return signature.split('#')[0] ?? signature;
}

/** A compact, key-safe digest of a signature (for `once` keys). */
export function signatureDigest(signature: string): string {
  return createHash('sha1').update(signature).digest('base64url').slice(0, 16);
}

function seconds(timestamp: string | null | undefined): string {
  if (!timestamp) return '';
  const ms = Date.parse(timestamp);
  return Number.isFinite(ms) ? String(Math.floor(ms / 1000)) : timestamp;
}
