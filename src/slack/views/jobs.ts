import type { JobList, JobListEntry } from '../../ops/jobs.js';
import type { Block, SlackMessage } from '../reply.js';
import { escapeMrkdwn, inlineCode, link } from '../text/escape.js';
import { fitList } from '../text/fit-list.js';
import { formatNumber, plural } from '../text/format.js';
import { MAX_SECTION_TEXT, MAX_TOTAL_BLOCK_TEXT } from '../text/limits.js';
import { truncate } from '../text/truncate.js';
import { context, section } from './blocks.js';
import { commitSubject, jobUrl, timingText } from './build-format.js';
import { lineSections } from './lists.js';
import type { Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

/**
 * `/ci jobs --state X` / `--queue X`: up to 250 jobs from the service, one line each, packed into
 * a few sections (a block per job would stop at 50) and cut with "showing N of M".
 */

const LINE_MAX = 300;
const SECTION_BUDGET = MAX_SECTION_TEXT - 100;

export function jobListLine(site: Site, entry: JobListEntry, now: Date): string {
  const { job, commit } = entry;
  const slug = job.repository_slug;
  const name = slug ? `${slug} #${job.number}` : `job #${job.number} (repository ${job.repository_id})`;
  const label = slug ? link(jobUrl(site, slug, job.id), name) : escapeMrkdwn(name);
  const subject = commitSubject(commit?.message, 60);
  const parts = [
    `${stateEmoji(job.state)} ${label} ${escapeMrkdwn(stateWord(job.state))}`,
    job.queue ? inlineCode(job.queue) : '',
    commit?.branch ? inlineCode(truncate(commit.branch, 40)) : '',
    subject ? `_${escapeMrkdwn(subject)}_` : '',
    timingText(job, now),
  ];
  return truncate(parts.filter((p) => p !== '').join(' · '), LINE_MAX);
}

export function jobListMessage(list: JobList, site: Site, now: Date): SlackMessage {
  const what =
    'state' in list.filter
      ? `in state ${inlineCode(list.filter.state)}`
      : `on queue ${inlineCode(list.filter.queue)}`;
  const blocks: Block[] = [section(`*Jobs ${what}* on ${escapeMrkdwn(site.label)}`)];
  if (list.entries.length === 0) {
    blocks.push(context('No jobs you can see match.'));
    return { text: `No jobs ${what}`, blocks };
  }
  const fitted = fitList(list.entries, (entry) => jobListLine(site, entry, now), {
    maxItems: list.entries.length,
    maxChars: MAX_TOTAL_BLOCK_TEXT - 1_000,
  });
  blocks.push(...lineSections(fitted.shown, SECTION_BUDGET));
  const notes: string[] = [];
  if (fitted.note) notes.push(`${fitted.note} jobs (cut to fit Slack)`);
  else notes.push(plural(list.entries.length, 'job'));
  if (list.atServiceLimit)
    notes.push(`${site.label} lists at most ${formatNumber(list.entries.length)}, so there may be more`);
  blocks.push(context(escapeMrkdwn(notes.join('; '))));
  return { text: `${plural(list.entries.length, 'job')} ${what}`, blocks };
}
