/** Small formatters for numbers, counts, sizes, durations and relative times in messages. */

/**
 * 1234 → `1,234`, 1.256 → `1.26` (at most two decimals). Written out rather than
 * `Intl.NumberFormat`, whose locale data costs every process about 5 MB of RSS.
 */
export function formatNumber(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  const rounded = Math.round(Math.abs(n) * 100) / 100;
  const [whole = '0', fraction] = String(rounded).split('.');
  const sign = n < 0 && rounded !== 0 ? '-' : '';
  return `${sign}${whole.replace(/\B(?=(\d{3})+$)/g, ',')}${fraction ? `.${fraction}` : ''}`;
}

/** `1 build`, `2 builds`, `1,234 builds`; give the plural when it is not singular + `s`. */
export function plural(count: number, singular: string, pluralForm = `${singular}s`): string {
  return `${formatNumber(count)} ${count === 1 ? singular : pluralForm}`;
}

/** `Restarted` from `restarted`: the first letter upper-cased. */
export function capitalise(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}

const BYTE_UNITS = ['KB', 'MB', 'GB', 'TB'];

/** 18874368 → `18 MB`, 1536 → `1.5 KB` (powers of 1,024). */
export function formatBytes(bytes: number): string {
  if (!Number.isFinite(bytes) || bytes < 1024) return `${Math.max(0, Math.round(bytes || 0))} B`;
  let value = bytes;
  let unit = 'B';
  for (const next of BYTE_UNITS) {
    if (value < 1024) break;
    value /= 1024;
    unit = next;
  }
  return `${value < 10 ? Math.round(value * 10) / 10 : Math.round(value)} ${unit}`;
}

const UNITS: readonly [suffix: string, seconds: number][] = [
  ['d', 86_400],
  ['h', 3_600],
  ['m', 60],
  ['s', 1],
];

/**
 * Seconds as `1h 2m 3s`, `45s`, `2m`, `1d 3h`: from the largest unit that is not zero down to the
 * smallest that is not zero. Rounded to whole seconds; a negative or non-finite value gives `–`.
 */
export function formatDuration(seconds: number): string {
  if (!Number.isFinite(seconds) || seconds < 0) return '–';
  let rest = Math.round(seconds);
  if (rest === 0) return '0s';
  const parts: { suffix: string; value: number }[] = [];
  for (const [suffix, size] of UNITS) {
    parts.push({ suffix, value: Math.floor(rest / size) });
    rest %= size;
  }
  const first = parts.findIndex((p) => p.value > 0);
  const last = parts.findLastIndex((p) => p.value > 0);
  return parts
    .slice(first, last + 1)
    .map((p) => `${p.value}${p.suffix}`)
    .join(' ');
}

const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];

/**
 * How long before `now` the ISO time `iso` was: `just now`, `40 sec ago`, `3 min ago`,
 * `5 hours ago`, `2 days ago`; from 30 days on, the date (`12 Mar 2024`, UTC). A time up to a
 * minute ahead (clock skew) is `just now`; further ahead, `in 3 min`. An unreadable time gives
 * `at an unknown time`.
 */
export function timeAgo(iso: string, now: Date | number): string {
  const then = Date.parse(iso);
  const nowMs = typeof now === 'number' ? now : now.getTime();
  if (Number.isNaN(then) || !Number.isFinite(nowMs)) return 'at an unknown time';
  const seconds = Math.round((nowMs - then) / 1000);
  if (seconds < -60) return `in ${span(-seconds)}`;
  if (seconds < 10) return 'just now';
  if (seconds >= 30 * 86_400) {
    const date = new Date(then);
    return `${date.getUTCDate()} ${MONTHS[date.getUTCMonth()]} ${date.getUTCFullYear()}`;
  }
  return `${span(seconds)} ago`;
}

function span(seconds: number): string {
  if (seconds < 60) return `${seconds} sec`;
  if (seconds < 3_600) return `${Math.floor(seconds / 60)} min`;
  if (seconds < 86_400) return plural(Math.floor(seconds / 3_600), 'hour');
  return plural(Math.floor(seconds / 86_400), 'day');
}
