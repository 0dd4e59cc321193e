/**
 * From the `text` of a slash command to words. Slack escapes `&`, `<` and `>` as entities and, for
 * commands with "escape channels, users and links" on, sends links and mentions as `<…>` markup;
 * both are undone here, so the parser sees what the person typed.
 */

const SLACK_ENTITIES: Readonly<Record<string, string>> = { '&amp;': '&', '&lt;': '<', '&gt;': '>' };

/** `<#C1|name>` → `#name`; `<@U1>` → `@U1`; `<!here>` → `@here`; links → what was typed. */
function plainMarkup(inner: string): string {
  const bar = inner.indexOf('|');
  const target = bar === -1 ? inner : inner.slice(0, bar);
  const label = bar === -1 ? undefined : inner.slice(bar + 1);
  if (target.startsWith('#')) return `#${label ?? target.slice(1)}`;
  if (target.startsWith('@')) return label === undefined ? target : `@${label.replace(/^@/, '')}`;
  if (target.startsWith('!')) return label ?? `@${target.slice(1).split('^')[0]}`;
  // Slack labels a link with the text that was typed when it added the scheme itself
  // (`octo/site.io` arrives as `octo/<http://site.io|site.io>`): keep what was typed then.
  if (label !== undefined && target.replace(/^[a-z]+:(\/\/)?/i, '') === label) return label;
  return target;
}

/** The command text as typed: Slack's `<…>` markup undone, then its entities decoded (in one pass). */
export function unslack(text: string): string {
  return text
    .replace(/<([^<>]*)>/g, (_, inner: string) => plainMarkup(inner))
    .replace(/&(amp|lt|gt);/g, (entity) => SLACK_ENTITIES[entity] ?? entity);
}

export interface Token {
  text: string;
  /** The word began with a quote: it is never read as an option (`"--active"` is a search term). */
  quoted: boolean;
}

export type TokenizeResult = { ok: true; tokens: Token[] } | { ok: false; reason: string };

const DOUBLE = new Set(['"', '\u201c', '\u201d', '\u201e']);
const SINGLE = new Set(["'", '\u2018', '\u2019']);
/** Invisible characters that arrive with pasted text and mean nothing here. */
const INVISIBLE = /[\u200b\u2060\ufeff]/g;

/**
 * Splits on whitespace (any Unicode space, newlines too). Double quotes (`"`, `“`, `”`) group words
 * anywhere in a word; single quotes (`'`, `‘`, `’`) only at the start of a word or after `=`, so an
 * apostrophe (`don't`) stays a letter. A quote closes with any quote of its kind, since phones turn
 * typed quotes into curly ones.
 */
export function tokenize(text: string): TokenizeResult {
  const tokens: Token[] = [];
  const chars = Array.from(text.replace(INVISIBLE, ''));
  let current: Token | undefined;
  let closing: Set<string> | undefined;
  for (const c of chars) {
    if (closing) {
      if (closing.has(c)) closing = undefined;
      else if (current) current.text += c;
      continue;
    }
    if (/\s/.test(c)) {
      if (current) tokens.push(current);
      current = undefined;
      continue;
    }
    const atWordStart = current === undefined || current.text.endsWith('=');
    if (DOUBLE.has(c) || (SINGLE.has(c) && atWordStart)) {
      current ??= { text: '', quoted: true };
      closing = DOUBLE.has(c) ? DOUBLE : SINGLE;
      continue;
    }
    current ??= { text: '', quoted: false };
    current.text += c;
  }
  if (closing)
    return { ok: false, reason: 'A quote is not closed: add the closing quote, or remove the opening one.' };
  if (current) tokens.push(current);
  return { ok: true, tokens };
}
