import type { types } from '@slack/bolt';
import type { Repository } from '../../ci/schemas.js';
import { buildWebUrl, profileWebUrl } from '../../ci/web-links.js';
import type { LinkedAccount } from '../../store/linked-accounts.js';
import { ACTIONS } from '../ids.js';
import type { Block } from '../reply.js';
import { escapeMrkdwn, link } from '../text/escape.js';
import { timeAgo } from '../text/format.js';
import { MAX_BLOCKS_PER_VIEW } from '../text/limits.js';
import { actions, button, context, divider, header, section } from './blocks.js';
import { fitBlocks } from './fit-blocks.js';
import type { Site } from './site.js';
import { stateEmoji, stateWord } from './state.js';

export interface HomeDeployment {
  site: Site;
  account?: LinkedAccount;
  /** Repositories with recent builds, newest first, or why they could not be loaded. */
  repos?: Repository[];
  problem?: string;
}

export interface HomeInput {
  deployments: HomeDeployment[];
  /** Extra sections other features contribute (channel subscriptions ...). */
  sections?: Block[];
  now: Date;
}

const RECENT_REPOS = 8;

export function homeView(input: HomeInput): types.HomeView {
  const blocks: Block[] = [
    header('CI from Slack'),
    section('Run `/ci help` in any channel to see what I can do.'),
  ];
  blocks.push(divider(), section('*Linked accounts*'));
  for (const { site, account } of input.deployments) {
    const label = escapeMrkdwn(site.label);
    blocks.push(
      account
        ? section(
            `*${label}*: linked as ${link(profileWebUrl(site.webUrl, account.ciLogin), account.ciLogin)}`,
            button(
              ACTIONS.unlinkAccount,
              'Unlink',
              { d: site.deployment },
              {
                suffix: site.deployment,
                confirm: {
                  title: 'Unlink this account?',
                  text: `Your ${site.label} token will be deleted from this app. Buttons you click will need a new link.`,
                  confirm: 'Unlink',
                },
              },
            ),
          )
        : section(
            `*${label}*: not linked`,
            button(
              ACTIONS.linkAccount,
              'Link',
              { d: site.deployment },
              { style: 'primary', suffix: site.deployment },
            ),
          ),
    );
  }
  for (const d of input.deployments.filter((x) => x.account)) {
    blocks.push(divider(), section(`*Recent builds on ${escapeMrkdwn(d.site.label)}*`));
    if (d.problem) {
      blocks.push(context(`:warning: ${escapeMrkdwn(d.problem)}`));
      continue;
    }
    const recent = (d.repos ?? []).filter((r) => r.last_build_id).slice(0, RECENT_REPOS);
    if (recent.length === 0) blocks.push(context('No recent builds on your repositories.'));
    for (const repo of recent) blocks.push(repoLine(d.site, repo, input.now));
  }
  blocks.push(...(input.sections ?? []));
  blocks.push(...actions([button(ACTIONS.refreshHome, 'Refresh', {})]));
  return { type: 'home', blocks: fitBlocks(blocks, { maxBlocks: MAX_BLOCKS_PER_VIEW }) };
}

function repoLine(site: Site, repo: Repository, now: Date): Block {
  const slug = escapeMrkdwn(repo.slug);
  const number = repo.last_build_number ? ` #${escapeMrkdwn(repo.last_build_number)}` : '';
  const buildUrl = buildWebUrl(site.webUrl, repo.slug, repo.last_build_id ?? 0);
  const when = repo.last_build_finished_at ?? repo.last_build_started_at;
  const ago = when ? ` · ${timeAgo(when, now)}` : '';
  return section(
    `${stateEmoji(repo.last_build_state)} *${slug}*${link(buildUrl, number)} ${stateWord(repo.last_build_state)}${ago}`,
    button(
      ACTIONS.showBuild,
      'Details',
      { d: site.deployment, id: repo.last_build_id ?? 0 },
      { suffix: `${site.deployment}.${repo.id}` },
    ),
  );
}
