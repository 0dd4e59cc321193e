import type { CiSession } from '../ci/client.js';
import { type LogTail, tailLog } from '../ci/log-text/index.js';
import { streamJobLog } from '../ci/logs.js';

/**
 * The end of a job's log. The log (up to tens of megabytes) is streamed and only its last lines are
 * kept, cleaned of terminal codes and fold markers; an archived log is fetched from where the
 * service redirects.
 */

export const DEFAULT_LOG_LINES = 40;
/** Bytes of cleaned text kept at most, whatever the number of lines asked for. */
export const MAX_TAIL_BYTES = 64 * 1024;

export interface JobLogTail extends LogTail {
  /** True when the log holds no visible text (the job has not written anything yet). */
  empty: boolean;
}

export async function tailJobLog(
  ci: CiSession,
  jobId: number,
  lines: number = DEFAULT_LOG_LINES,
): Promise<JobLogTail> {
  const tail = await tailLog(await streamJobLog(ci, jobId), { lines, bytes: MAX_TAIL_BYTES });
  const blank = tail.lines.every((line) => line.trim() === '');
  return { ...tail, empty: tail.totalLines === 0 || (blank && !tail.truncated) };
}
