/**
 * Travis writes fold and timing markers into the log for its web viewer, each followed by a
 * carriage return and "clear to end of line" so that a plain terminal erases them:
 *   travis_fold:start:install.1\r\e[0K   travis_time:start:0f2a1b\r\e[0K
 *   travis_time:end:0f2a1b:start=1,finish=2,duration=1,event=install\r\e[0K   travis_fold:end:install.1\r\e[0K
 * Some build scripts write them without the `\r\e[0K`, or with only the `\r`.
 */

/** Marker names and timing data are short; a longer run of name characters is ordinary text. */
const MARKER_NAME_MAX = 256;

/** An upper bound on the length of any match of `TRAVIS_MARKER` (prefix, name, `\r`, `\e[0K`). */
export const MAX_MARKER_LENGTH = MARKER_NAME_MAX + 32;

/** The marker, its name (no whitespace, no ESC), then an optional `\r` and clear-line code. */
export const TRAVIS_MARKER = new RegExp(
  String.raw`travis_(?:fold|time):(?:start|end):[^\s\x1b]{0,${MARKER_NAME_MAX}}\r?(?:\x1b\[[0-2]?K)?`,
  'g',
);

/** Remove travis_fold:* and travis_time:* markers (with their surrounding \r and ANSI clear-line codes). */
export function dropMarkers(text: string): string {
  return text.includes('travis_') ? text.replace(TRAVIS_MARKER, '') : text;
}
