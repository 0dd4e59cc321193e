import type { Job } from '../../ci/schemas.js';
import type { JobLogTail } from '../../ops/logs.js';
import type { SlackMessage } from '../reply.js';
import { codeBlock } from '../text/code-block.js';
import { escapeMrkdwn, link } from '../text/escape.js';
import { formatNumber, plural } from '../text/format.js';
import { jobUrl } from './build-format.js';
import type { Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

/**
 * `/ci logs` and the Log buttons: the end of a job's log in a code block, with a link to the whole
 * log on the web app. The message is text only (no blocks): a section holds 3,000 characters, the
 * message text many more, so more of the log fits. `codeBlock` keeps a stray ``` in the log from
 * closing the block and escapes `<!channel>` and friends.
 */

/** Characters of the code block, fences included. */
export const LOG_CODE_CHARS = 8_000;

export interface LogViewInput {
  site: Site;
  slug: string;
  job: Pick<Job, 'id' | 'number' | 'state'>;
  tail: JobLogTail;
}

export function logMessage(input: LogViewInput): SlackMessage {
  const { site, slug, job, tail } = input;
  const url = jobUrl(site, slug, job.id);
  const name = `job ${link(url, `#${job.number}`)} of ${escapeMrkdwn(slug)}`;
  const state = `${stateEmoji(job.state)} ${escapeMrkdwn(stateWord(job.state))}`;
  const whole = link(url, `Full log on ${site.label}`);
  if (tail.empty) {
    const when = job.state === 'started' || stateWord(job.state) === 'queued' ? ' so far' : '';
    return { text: `The log of ${name} is empty${when} (${state}). ${whole}` };
  }
  const shown = tail.lines.length;
  const count =
    shown < tail.totalLines
      ? `last ${formatNumber(shown)} of ${plural(tail.totalLines, 'line')}`
      : plural(shown, 'line');
  const title = `*Log of ${name}* · ${state} · ${count} · ${whole}`;
  return { text: `${title}\n${codeBlock(tail.lines.join('\n'), LOG_CODE_CHARS)}` };
}
