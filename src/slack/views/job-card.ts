import { type Commit, isFinished, type Job } from '../../ci/schemas.js';
import { ACTIONS } from '../ids.js';
import type { Block } from '../reply.js';
import { escapeMrkdwn, inlineCode, link } from '../text/escape.js';
import { truncate } from '../text/truncate.js';
import { actions, type Button, button, context, section } from './blocks.js';
import { jobLine } from './build-card.js';
import { buildUrl, commitSubject, commitText } from './build-format.js';
import type { Site } from './site.js';
import { stateWord } from './state.js';

/** One job: its line from the build card, where it belongs, and its buttons (link previews of job links). */

export interface JobCardInput {
  site: Site;
  slug: string;
  job: Job;
  commit: Commit | undefined;
  now: Date;
  /** The repository moved to this deployment ("travis-ci.com"): read-only here, so no Restart/Cancel. */
  movedTo?: string | undefined;
}

export function jobCardText(input: JobCardInput): string {
  const subject = commitSubject(input.commit?.message, 80);
  return `${input.slug} job #${input.job.number} ${stateWord(input.job.state)}${subject ? `: ${subject}` : ''}`;
}

export function jobCardBlocks(input: JobCardInput, options: { interactive?: boolean } = {}): Block[] {
  const { site, slug, job, commit, now } = input;
  const buildNumber = job.number.split('.')[0] ?? job.number;
  const where = [
    `Job of build ${link(buildUrl(site, slug, job.build_id), `#${buildNumber}`)} of ${escapeMrkdwn(slug)}`,
    commit?.branch ? inlineCode(truncate(commit.branch, 60)) : '',
    commitText(commit, 100),
  ].filter((p) => p !== '');
  const blocks: Block[] = [section(jobLine(site, slug, job, now)), context(where.join(' · '))];
  if (options.interactive ?? true) {
    const target = { d: site.deployment, id: job.id };
    blocks.push(
      ...actions([
        button(ACTIONS.showLog, 'Log', target, { suffix: String(job.id) }),
        isFinished(job.state)
          ? undefined
          : button(ACTIONS.followLog, 'Follow', target, { suffix: String(job.id) }),
        ...(input.movedTo === undefined ? controlButtons(input) : []),
        button(
          ACTIONS.showBuild,
          'Build details',
          { d: site.deployment, id: job.build_id },
          { suffix: String(job.build_id) },
        ),
      ]),
    );
  }
  return blocks;
}

/** "Restart job" and "Cancel job" (behind a confirm dialog); whoever clicks acts with their own account. */
function controlButtons(input: JobCardInput): Button[] {
  const { site, slug, job } = input;
  const target = { d: site.deployment, id: job.id };
  return [
    button(ACTIONS.restartJob, 'Restart job', target, { suffix: String(job.id) }),
    button(ACTIONS.cancelJob, 'Cancel job', target, {
      suffix: String(job.id),
      style: 'danger',
      confirm: {
        title: 'Cancel this job?',
        text: `Cancel job #${escapeMrkdwn(job.number)} of ${escapeMrkdwn(slug)}? It stops now.`,
        confirm: 'Cancel job',
        deny: 'Keep it running',
      },
    }),
  ];
}
