/**
 * Orders text alphabetically, ignoring case first and then by UTF-16 code units: the same order on
 * every machine. Not `localeCompare`, which follows the host's locale and pulls ICU's collation
 * data into memory (about 4 MB of RSS) for lists of ids, slugs and timestamps.
 */
export function compareText(a: string, b: string): number {
  return compareCodeUnits(a.toLowerCase(), b.toLowerCase()) || compareCodeUnits(a, b);
}

function compareCodeUnits(a: string, b: string): number {
  if (a === b) return 0;
  return a < b ? -1 : 1;
}
