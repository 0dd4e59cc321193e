import { z } from 'zod';
import {
  type Build,
  buildSchema,
  type Commit,
  type Job,
  jobSchema,
  sideloadedCommitSchema,
} from '../../ci/schemas.js';

/**
 * A build or job event of the realtime service, read (real-service notes, "Realtime"): build events
 * carry `{build, commit, repository}`, job events a flat job; a payload over 10,000 bytes is replaced
 * by a stub naming the build (`{build: {id}}` or `{id, build_id}`) with `_no_full_payload`.
 */
export type BuildEvent =
  | { kind: 'build'; build: Build; commit: Commit | undefined }
  | { kind: 'job'; job: Job }
  | { kind: 'stub'; buildId: number };

const buildPayload = z.looseObject({ build: buildSchema, commit: sideloadedCommitSchema });
const buildStub = z.looseObject({
  _no_full_payload: z.literal(true),
  build: z.looseObject({ id: z.number().int() }),
});
const jobStub = z.looseObject({ _no_full_payload: z.literal(true), build_id: z.number().int() });

/** Undefined for events that are not about builds or jobs (`job:log`) and for payloads that do not parse. */
export function readBuildEvent(event: string, data: unknown): BuildEvent | undefined {
  if (event.startsWith('build:')) {
    const stub = buildStub.safeParse(data);
    if (stub.success) return { kind: 'stub', buildId: stub.data.build.id };
    const full = buildPayload.safeParse(data);
    return full.success ? { kind: 'build', build: full.data.build, commit: full.data.commit } : undefined;
  }
  if (event.startsWith('job:') && event !== 'job:log') {
    const stub = jobStub.safeParse(data);
    if (stub.success) return { kind: 'stub', buildId: stub.data.build_id };
    const job = jobSchema.safeParse(data);
    return job.success ? { kind: 'job', job: job.data } : undefined;
  }
  return undefined;
}

/** The build an event is about. */
export function eventBuildId(event: BuildEvent): number {
  if (event.kind === 'build') return event.build.id;
  if (event.kind === 'job') return event.job.build_id;
  return event.buildId;
}

/** The repository an event names, when it names one (stubs do not). */
export function eventRepoId(event: BuildEvent): number | undefined {
  if (event.kind === 'build') return event.build.repository_id;
  if (event.kind === 'job') return event.job.repository_id;
  return undefined;
}
