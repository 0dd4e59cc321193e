import type { CiSession } from '../ci/client.js';
import { lintConfig } from '../ci/lint.js';
import type { LintWarning } from '../ci/schemas.js';

export type { LintWarning };

/** POST /lint with the configuration text: the warnings, each with the key path it concerns. */
export function lintConfiguration(ci: CiSession, content: string): Promise<LintWarning[]> {
  return lintConfig(ci, content);
}

/** `language` for a top-level key, `deploy.provider` for a nested one, empty for the whole file. */
export function keyPath(warning: Pick<LintWarning, 'key'>): string {
  return warning.key.join('.');
}

const FENCE = '```';

/**
 * The text of the first ``` code block of a Slack message, as the person typed it: Slack sends the
 * message text with `&`, `<`, `>` escaped and links wrapped (`<https://x|x>`), both undone here.
 * A first line that only names the language (`yaml`, `yml`) is dropped. Undefined without a
 * complete code block.
 */
export function extractCodeBlock(messageText: string): string | undefined {
  const open = messageText.indexOf(FENCE);
  if (open === -1) return undefined;
  const start = open + FENCE.length;
  const close = messageText.indexOf(FENCE, start);
  if (close === -1) return undefined;
  let body = unescapeSlackText(messageText.slice(start, close));
  const firstBreak = body.indexOf('\n');
  if (firstBreak !== -1 && /^\s*ya?ml\s*$/i.test(body.slice(0, firstBreak)))
    body = body.slice(firstBreak + 1);
  body = body.replace(/^\n/, '');
  return body.trim() === '' ? undefined : body;
}

/** Slack's markup of message text undone: links to their text, then the three entities. */
export function unescapeSlackText(text: string): string {
  return text
    .replace(/<((?:https?|mailto):[^|>]*)\|([^>]*)>/g, '$2')
    .replace(/<((?:https?|mailto):[^|>]*)>/g, '$1')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
}
