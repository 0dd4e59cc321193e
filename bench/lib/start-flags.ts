import { readFileSync } from 'node:fs';

/**
 * The node flags `npm start` runs the app with (package.json's start script), less
 * `--enable-source-maps`: benchmarks run the app the way it is deployed unless told otherwise.
 */
export function startFlags(): string[] {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  return pkg.scripts.start
    .split(/\s+/)
    .filter((word) => word.startsWith('--') && word !== '--enable-source-maps');
}
