import { readFileSync } from 'node:fs';

/** How `npm start` runs the app: the environment it sets and the node flags it passes. */
export interface StartCommand {
  env: Record<string, string>;
  flags: string[];
}

/**
 * package.json's start script (`NAME=value … exec node --flag … dist/main.js`) read into its settings
 * and flags: benchmarks run the app the way it is deployed unless told otherwise.
 */
export function startCommand(): StartCommand {
  const pkg = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  };
  const words = pkg.scripts.start.split(/\s+/);
  const env: Record<string, string> = {};
  for (const word of words) {
    const setting = /^([A-Z_]+)=(.*)$/.exec(word);
    if (setting?.[1] !== undefined) env[setting[1]] = setting[2] ?? '';
  }
  return { env, flags: words.filter((word) => word.startsWith('--')) };
}
