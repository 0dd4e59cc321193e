import { z } from 'zod';
import type { CiSession } from './client.js';
import { idSegment } from './paths.js';
import { type Log, logSchema } from './schemas.js';

/**
 * 4.10 Logs. A log of any size is read as a stream and tailed in bounded memory (log-text/);
 * an archived log redirects to object storage, which the client core follows without the token.
 */

/** GET /jobs/{id}/log with Accept text/plain — the whole log as bytes. */
export async function streamJobLog(ci: CiSession, jobId: number): Promise<AsyncIterable<Uint8Array>> {
  return ci.stream({ method: 'GET', path: `/jobs/${idSegment(jobId, 'job id')}/log`, accept: 'text' });
}

/** GET /jobs/{id}/log as text (small logs; large ones should use streamJobLog). */
export async function getJobLogText(ci: CiSession, jobId: number): Promise<string> {
  return ci.text({ method: 'GET', path: `/jobs/${idSegment(jobId, 'job id')}/log`, accept: 'text' });
}

/** GET /jobs/{id}/logs — the other plain-text path; archived logs redirect as well. */
export async function streamJobLogs(ci: CiSession, jobId: number): Promise<AsyncIterable<Uint8Array>> {
  return ci.stream({ method: 'GET', path: `/jobs/${idSegment(jobId, 'job id')}/logs`, accept: 'text' });
}

const logAnswer = z.looseObject({ log: logSchema });

/** GET /logs/{id} — the log resource with its body. */
export async function getLog(ci: CiSession, logId: number): Promise<Log> {
  return (await ci.json({ method: 'GET', path: `/logs/${idSegment(logId, 'log id')}` }, logAnswer)).log;
}

export interface LogPart {
  number: number;
  content: string;
  final: boolean;
}

/** GET /logs/{id} with `chunked=true` in the media type — the parts that exist so far. */
export async function getLogParts(
  ci: CiSession,
  logId: number,
): Promise<{ jobId: number; parts: LogPart[] }> {
  const { log } = await ci.json(
    { method: 'GET', path: `/logs/${idSegment(logId, 'log id')}`, accept: 'chunked' },
    logAnswer,
  );
  const parts = (log.parts ?? []).map((p) => ({
    number: p.number,
    content: p.content,
    final: p.final === true,
  }));
  return { jobId: log.job_id, parts };
}
