import type { Deployment } from '../../config.js';

/** `--org`, `—com` … as the parser reads them (flags.ts); case does not matter. */
const DEPLOYMENT_OPTION = /^(?:--|\u2014|\u2013)(?:com|org|enterprise)$/i;
const DOUBLE_QUOTES = new Set(['"', '\u201c', '\u201d', '\u201e']);

/**
 * The same command text, run on another deployment: any deployment option is taken out (outside
 * quotes) and `--<deployment>` put right after the command word, before a possible `--` that ends
 * the options. Everything else stays as typed, spacing and quotes included, so the parser reads
 * the same command; a pasted link of the old deployment then conflicts with the option and the
 * parser says so, instead of running it against the wrong build.
 */
export function onDeployment(text: string, deployment: Deployment): string {
  const parts = text.trim().split(/(\s+)/);
  const kept: string[] = [];
  let quoted = false;
  for (let i = 0; i < parts.length; i += 2) {
    const word = parts[i] ?? '';
    if (!quoted && DEPLOYMENT_OPTION.test(word)) continue;
    if (kept.length > 0) kept.push(parts[i - 1] ?? ' ');
    kept.push(word);
    for (const c of word) if (DOUBLE_QUOTES.has(c)) quoted = !quoted;
  }
  const [command = '', ...rest] = kept;
  return [command, ` --${deployment}`, ...rest].join('');
}
