import { z } from 'zod';
import { DEPLOYMENTS } from '../config.js';
import { parseJsonOrUndefined } from '../json.js';

/**
 * Every action_id, callback_id and shortcut id in one place, each with the zod schema of the value
 * its button carries. Block builders encode with `encodeValue`, handlers decode with `decodeValue`:
 * the same constant on both sides, never a string in one file and a regex in another.
 *
 * Values hold references only (deployment, ids, names), never a token: whoever clicks acts with
 * their own linked account.
 */

const deployment = z.enum(DEPLOYMENTS);
const id = z.number().int().positive();
const repo = z.string().min(1).max(300);

const target = z.object({ d: deployment, id });
const repoTarget = z.object({ d: deployment, repo });

export const ACTIONS = {
  /** Opens the login modal for a deployment. */
  linkAccount: { id: 'account.link', value: z.object({ d: deployment }) },
  unlinkAccount: { id: 'account.unlink', value: z.object({ d: deployment }) },
  /** Next page of a build list (after_number). */
  olderBuilds: {
    id: 'builds.older',
    value: z.object({
      d: deployment,
      repo,
      after: z.string().max(30),
      branch: z.string().max(255).optional(),
      event: z.string().max(30).optional(),
    }),
  },
  showBuild: { id: 'build.show', value: target },
  restartBuild: { id: 'build.restart', value: target },
  cancelBuild: { id: 'build.cancel', value: target },
  restartJob: { id: 'job.restart', value: target },
  cancelJob: { id: 'job.cancel', value: target },
  showLog: { id: 'job.log', value: target },
  followLog: { id: 'job.follow', value: target },
  /** `repo` names the repository in the announcement; `q` (quiet) keeps it private. */
  deleteEnvVar: {
    id: 'env.delete',
    value: z.object({
      d: deployment,
      repoId: id,
      envId: z.string().max(64),
      name: z.string().max(255),
      repo,
      q: z.boolean().optional(),
    }),
  },
  deleteCaches: {
    id: 'caches.delete',
    value: z.object({
      d: deployment,
      repo,
      branch: z.string().max(255).optional(),
      match: z.string().max(255).optional(),
      q: z.boolean().optional(),
    }),
  },
  deleteSshKey: {
    id: 'sshkey.delete',
    value: z.object({ d: deployment, repoId: id, repo, quiet: z.boolean().optional() }),
  },
  /** `quiet`: the command had --quiet, so the change is confirmed privately instead of announced. */
  regenerateKey: { id: 'pubkey.regenerate', value: repoTarget.extend({ quiet: z.boolean().optional() }) },
  openSettings: { id: 'settings.open', value: z.object({ d: deployment, repoId: id, repo }) },
  /** Runs a command again against the deployment a repository moved to. */
  runOnDeployment: { id: 'command.rerun', value: z.object({ d: deployment, text: z.string().max(1800) }) },
  refreshHome: { id: 'home.refresh', value: z.object({}) },
  /** Starts the migration batch of a draft (`d`: the deployment the repositories move to). */
  confirmMigration: { id: 'migration.confirm', value: z.object({ d: deployment, id: z.string().max(40) }) },
  cancelMigration: { id: 'migration.cancel', value: z.object({ id: z.string().max(40) }) },
  /**
   * Moves a channel's subscription (by its id) to the deployment `d` its repositories migrated to;
   * `what` names what it follows (`owner/name` or `owner/*`) in answers.
   */
  moveSubscription: {
    id: 'migration.move_subscription',
    value: z.object({ d: deployment, sub: z.string().max(100), what: z.string().max(300) }),
  },
} as const;

export const VIEWS = {
  login: 'view.login',
  envSet: 'view.env_set',
  encrypt: 'view.encrypt',
  sshKeySet: 'view.sshkey_set',
  settings: 'view.settings',
  lint: 'view.lint',
  /** A modal that only shows a result; its submit closes it. */
  info: 'view.info',
} as const;

export const SHORTCUTS = {
  /** Message shortcut "Lint CI config" on a message holding a YAML code block. */
  lintMessage: 'shortcut.lint_config',
} as const;

export type ActionSpec = (typeof ACTIONS)[keyof typeof ACTIONS];
export type ActionValue<A extends ActionSpec> = z.output<A['value']>;

export function encodeValue<A extends ActionSpec>(action: A, value: z.input<A['value']>): string {
  return JSON.stringify(action.value.parse(value));
}

/** Undefined when the value is missing or does not match: the payload came from outside. */
export function decodeValue<A extends ActionSpec>(
  action: A,
  raw: string | undefined,
): ActionValue<A> | undefined {
  if (raw === undefined) return undefined;
  const parsed = action.value.safeParse(parseJsonOrUndefined(raw));
  return parsed.success ? (parsed.data as ActionValue<A>) : undefined;
}
