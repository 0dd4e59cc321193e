import { CiError } from '../ci/errors.js';
import type { Deployment } from '../config.js';
import { StoreUnavailableError } from '../store/kv.js';

/**
 * The one place where an error becomes the sentence a user reads. Callers say what they were doing
 * (`action`, e.g. "restart build #12 of rails/rails") so the sentence can be specific.
 */

export class NotLinkedError extends Error {
  override readonly name = 'NotLinkedError';
  readonly code = 'not_linked';
  constructor(readonly deployment: Deployment) {
    super(`No linked account for ${deployment}`);
  }
}

/**
 * A change asked of a repository the app knows moved off this deployment (it migrated it, or the
 * service said so before): refused before any request, like the service's `migrated_repository`.
 */
export class RepositoryMovedError extends Error {
  override readonly name = 'RepositoryMovedError';
  readonly code = 'repository_moved';
  constructor(readonly repo: string) {
    super(`${repo} moved to another deployment`);
  }
}

/** A use case refused on its own (bad input, nothing to do); the message is already user-facing. */
export class UserFacingError extends Error {
  override readonly name = 'UserFacingError';
  readonly code = 'user_facing';
}

export interface ErrorContext {
  /** Human label of the deployment, e.g. "travis-ci.com". */
  deploymentLabel: string;
  /** What the user asked for, as a verb phrase: "restart build #12 of rails/rails". */
  action?: string;
  /** What was looked up, for not-found answers: "build #12 of rails/rails". */
  subject?: string;
  /** The user's CI login on that deployment, when known. */
  login?: string;
  /** Whether the request changed something (then a timeout leaves its outcome unknown). */
  isChange?: boolean;
  /** Human label of the deployment repositories of this one moved to ("travis-ci.com"), if any. */
  movedToLabel?: string;
}

export interface DescribedError {
  text: string;
  /** Something the user can act on with a button. */
  offer?: 'link_account' | 'open_on_new_deployment';
  /** An unexpected error: logged with this reference, shown to the user so support can find it. */
  reference?: string;
}

export function describeError(error: unknown, context: ErrorContext, reference?: string): DescribedError {
  const where = context.deploymentLabel;
  if (error instanceof NotLinkedError) {
    return {
      text: `You have not linked your ${where} account yet. Link it to act with your own CI permissions.`,
      offer: 'link_account',
    };
  }
  if (error instanceof UserFacingError) return { text: error.message };
  if (error instanceof RepositoryMovedError)
    return { text: movedText(context), offer: 'open_on_new_deployment' };
  if (error instanceof StoreUnavailableError) {
    return {
      text: 'My storage is not answering right now, so nothing was done. Please try again in a minute.',
    };
  }
  if (error instanceof CiError) return describeCiError(error, context);
  return {
    text: `Something went wrong on our side${reference ? ` (reference ${reference})` : ''}. Nothing else was changed; please try again, and tell your admin if it keeps happening.`,
    reference,
  };
}

function describeCiError(error: CiError, context: ErrorContext): DescribedError {
  const where = context.deploymentLabel;
  const account = context.login ? `your ${where} account (${context.login})` : `your ${where} account`;
  const said = error.data.serviceMessage ? ` The service said: “${error.data.serviceMessage}”` : '';
  switch (error.code) {
    case 'unauthenticated':
      return {
        text: `${where} did not accept your linked token; it may have been revoked. Link your account again.`,
        offer: 'link_account',
      };
    case 'not_found':
      return {
        text: `I could not find ${context.subject ?? 'that'} on ${where}, or ${account} cannot see it.`,
      };
    case 'insufficient_access': {
      const needs = error.data.permission ? ` (it needs ${error.data.permission} access)` : '';
      return { text: `${capitalise(account)} is not allowed to ${context.action ?? 'do that'}${needs}.` };
    }
    case 'migrated_repository':
      return { text: movedText(context), offer: 'open_on_new_deployment' };
    case 'already_migrated':
      return {
        text: `${capitalise(context.subject ?? 'This repository')} is already migrating or migrated.`,
      };
    case 'conflict':
      return { text: `${where} says this conflicts with something already in progress.${said}` };
    case 'rate_limited': {
      const wait = error.data.retryAfterMs
        ? ` in about ${Math.ceil(error.data.retryAfterMs / 1000)} s`
        : ' shortly';
      return { text: `${where} is limiting how fast we can call it. Please try again${wait}.` };
    }
    case 'unavailable':
      return { text: unavailableText(error, context) };
    case 'invalid_response':
      return {
        text: `${where} answered something I could not read${error.data.fieldPath ? ` (at ${error.data.fieldPath})` : ''}, so I stopped. This is likely a change on their side; please tell your admin.`,
      };
    case 'bad_request':
      return { text: `That request cannot be sent: ${error.data.rule ?? error.message}.` };
    case 'rejected':
      return { text: `${where} refused to ${context.action ?? 'do that'}.${said}` };
  }
}

/** "This repository now lives on travis-ci.com; travis-ci.org keeps it read-only, so …". */
function movedText(context: ErrorContext): string {
  const there = context.movedToLabel ?? 'another deployment';
  return `This repository now lives on ${there}; ${context.deploymentLabel} keeps it read-only, so I cannot ${context.action ?? 'change it'} there.`;
}

function unavailableText(error: CiError, context: ErrorContext): string {
  const where = context.deploymentLabel;
  const why =
    error.data.reason === 'server_error'
      ? `is having trouble (it answered ${error.data.status ?? 'an error'})`
      : error.data.reason === 'timeout'
        ? 'did not answer in time'
        : 'cannot be reached';
  const outcome =
    context.isChange && (error.data.reason === 'timeout' || error.data.reason === 'reset')
      ? ` I could not tell whether your request to ${context.action ?? 'change it'} went through; check before trying again.`
      : ' Nothing was changed; please try again in a minute.';
  return `${where} ${why}.${outcome}`;
}

/** The `code` an error carries (CiError, NotLinkedError …), for log lines; undefined when it has none. */
export function errorCode(error: unknown): string | undefined {
  const code = typeof error === 'object' && error !== null ? (error as { code?: unknown }).code : undefined;
  return typeof code === 'string' ? code : undefined;
}

function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/** "travis-ci.com" for the hosted deployments, the host for an enterprise one. */
export function deploymentLabel(webUrl: string): string {
  const host = new URL(webUrl).host;
  return host.replace(/^(app|www)\./, '');
}
