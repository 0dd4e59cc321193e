/**
 * Making outside text (commit messages, branch names, log lines, user input) safe to put in mrkdwn.
 * Slack reads `<...>` as links and mentions (`<!channel>`, `<@U1>`, `<https://x|y>`), so `&`, `<`
 * and `>` must always be escaped; the helpers here also keep such text from breaking out of the
 * formatting we wrap around it.
 */

const ENTITIES: Readonly<Record<string, string>> = { '&': '&amp;', '<': '&lt;', '>': '&gt;' };

/**
 * Invisible WORD JOINER put after the `@` of `@channel`, `@here` and `@everyone`: those words only
 * notify when a message is sent with `link_names`, and this keeps them inert even then.
 */
const MENTION_BREAKER = '\u2060';

/** `&` → `&amp;`, `<` → `&lt;`, `>` → `&gt;`, and broadcast words made inert. Nothing else changes. */
export function escapeMrkdwn(text: string): string {
  return text
    .replace(/[&<>]/g, (c) => ENTITIES[c] ?? c)
    .replace(/@(channel|here|everyone)\b/gi, `@${MENTION_BREAKER}$1`);
}

/** Collapses every run of whitespace (newlines included) into one space and trims the ends. */
export function singleLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/**
 * Outside text as an inline code span on one line. A backtick would close the span, so each one
 * becomes U+02CB (ˋ, a look-alike).
 */
export function inlineCode(text: string): string {
  const inner = escapeMrkdwn(singleLine(text)).replace(/`/g, '\u02cb');
  return `\`${inner === '' ? ' ' : inner}\``;
}

/**
 * `<@U123>`: a mention of a Slack user (who acted, in announcements). Anything that is not a user
 * id is shown escaped instead, so a value from outside cannot become a broadcast.
 */
export function mention(userId: string): string {
  return /^[UW][A-Z0-9]+$/.test(userId) ? `<@${userId}>` : escapeMrkdwn(userId);
}

/**
 * The URL, normalised, when it is an absolute http(s) URL; `undefined` otherwise (`javascript:`,
 * `mailto:`, relative or malformed). Suitable for a button's `url` field.
 */
export function safeHttpUrl(url: string): string | undefined {
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    return undefined;
  }
  if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:') return undefined;
  return parsed.href;
}

/**
 * An mrkdwn link `<url|label>`. The label is escaped; in the URL, `|`, `<` and `>` are
 * percent-encoded and `&` is written `&amp;`, so neither can end the link early. A URL that is not
 * http(s) gives the escaped label alone, without a link.
 */
export function link(url: string, label?: string): string {
  const href = safeHttpUrl(url);
  const text = singleLine(label ?? '');
  const safeLabel = escapeMrkdwn(text === '' ? singleLine(url) : text);
  if (href === undefined) return safeLabel;
  const safeHref = href
    .replace(/\|/g, '%7C')
    .replace(/</g, '%3C')
    .replace(/>/g, '%3E')
    .replace(/&/g, '&amp;');
  return `<${safeHref}|${safeLabel}>`;
}
