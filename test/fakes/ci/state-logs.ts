/** Logs of jobs: whole texts, live parts (announced as `job:log`) and archiving. */
import { logChannel, logPartPayload } from './realtime.js';
import { isFinished, type JobRecord, type LogPart, type LogRecord } from './records.js';
import { FakeStateError, StateBase } from './state-base.js';

export class LogsState extends StateBase {
  getJob(id: number): JobRecord | undefined {
    return this.jobs.get(id);
  }

  getLog(jobId: number): LogRecord | undefined {
    const job = this.jobs.get(jobId);
    return job ? this.logs.get(job.logId) : undefined;
  }

  getLogById(logId: number): LogRecord | undefined {
    return this.logs.get(logId);
  }

  /** Replaces the whole log with one part. `final` defaults to whether the job has finished. */
  setLog(jobId: number, text: string, options: { final?: boolean } = {}): LogRecord {
    const job = this.requireJob(jobId);
    const final = options.final ?? isFinished(job.state);
    const log: LogRecord = { id: job.logId, jobId, parts: [], archived: false };
    if (text !== '' || final) log.parts.push({ number: 0, content: text, final });
    this.logs.set(log.id, log);
    return log;
  }

  /** Removes the job's log record entirely (GET then answers the "no log" shapes). */
  removeLog(jobId: number): void {
    this.logs.delete(this.requireJob(jobId).logId);
  }

  /**
   * Adds a live log part (number: one above the highest so far unless given) and emits `job:log`
   * on `job-<id>` / `private-job-<id>`.
   */
  appendLogPart(jobId: number, content: string, options: { final?: boolean; number?: number } = {}): LogPart {
    const job = this.requireJob(jobId);
    const log = this.getLog(jobId) ?? this.setLog(jobId, '', { final: false });
    const number = options.number ?? Math.max(-1, ...log.parts.map((p) => p.number)) + 1;
    const part: LogPart = { number, content, final: options.final ?? false };
    log.parts = [...log.parts.filter((p) => p.number !== number), part];
    const repo = this.requireRepo(job.repositoryId);
    this.emitPusher({
      channel: logChannel(repo, job.id),
      event: 'job:log',
      data: logPartPayload(job.id, part),
    });
    return part;
  }

  /** From now on the API redirects plain-text reads of this log to the archive server. */
  archiveLog(jobId: number): LogRecord {
    const log = this.getLog(jobId) ?? this.setLog(jobId, '', { final: true });
    log.archived = true;
    return log;
  }

  requireJob(jobId: number): JobRecord {
    const job = this.jobs.get(jobId);
    if (!job) throw new FakeStateError(`no job ${jobId}`);
    return job;
  }
}
