/** How times and states move when a build or job changes state. */
import { type CiState, isFinished, type JobRecord } from './records.js';
import { isoNow } from './state-base.js';

export function defaultTimes(state: string): { startedAt: string | null; finishedAt: string | null } {
  const started = state === 'started' || isFinished(state);
  return { startedAt: started ? isoNow() : null, finishedAt: isFinished(state) ? isoNow() : null };
}

/** Times after a state change, as the service would set them. */
export function movedTimes(
  record: { startedAt: string | null; finishedAt: string | null },
  next: string,
): { startedAt: string | null; finishedAt: string | null; duration?: number | null } {
  if (next === 'created' || next === 'received' || next === 'queued') {
    return { startedAt: null, finishedAt: null, duration: null };
  }
  if (next === 'started') return { startedAt: record.startedAt ?? isoNow(), finishedAt: null };
  if (!isFinished(next)) return { startedAt: record.startedAt, finishedAt: record.finishedAt };
  const finishedAt = isoNow();
  const duration = record.startedAt
    ? Math.max(0, Math.round((Date.parse(finishedAt) - Date.parse(record.startedAt)) / 1000))
    : 0;
  return { startedAt: record.startedAt, finishedAt, duration };
}

/** The build state once every job finished (canceled wins, then errored, then failed). */
export function matrixState(jobs: JobRecord[]): CiState {
  const counted = jobs.filter((j) => !j.allowFailure || j.state === 'canceled');
  if (counted.some((j) => j.state === 'canceled')) return 'canceled';
  if (counted.some((j) => j.state === 'errored')) return 'errored';
  if (counted.some((j) => j.state === 'failed')) return 'failed';
  return 'passed';
}
