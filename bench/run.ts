/**
 * `npm run bench`: runs every benchmark in its own process, then assembles BENCHMARKS.md from the
 * reports they write (bench/<name>.md). Pass names to run only some: `npm run bench -- ack`.
 * Extra options after `--` go to each benchmark, e.g. `npm run bench -- ack -- --seconds 5`.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';

const BENCHMARKS = ['ack', 'follow', 'watch'] as const;

const args = process.argv.slice(2);
const split = args.indexOf('--');
const names = (split === -1 ? args : args.slice(0, split)).filter((n) => n !== '');
const passThrough = split === -1 ? [] : args.slice(split + 1);
const chosen = names.length > 0 ? BENCHMARKS.filter((b) => names.includes(b)) : [...BENCHMARKS];

for (const name of chosen) {
  const file = new URL(`./${name}.ts`, import.meta.url).pathname;
  if (!existsSync(file)) {
    console.error(`bench/${name}.ts does not exist; skipped`);
    continue;
  }
  console.error(`\n=== bench/${name}.ts`);
  const run = spawnSync(process.execPath, ['--import', 'tsx', file, ...passThrough], { stdio: 'inherit' });
  if (run.status !== 0)
    console.error(`bench/${name}.ts failed (exit ${run.status}); its previous report is kept`);
}

const sections: string[] = [];
for (const name of BENCHMARKS) {
  const report = new URL(`./${name}.md`, import.meta.url);
  if (existsSync(report)) sections.push((await readFile(report, 'utf8')).trim());
}
const header = `# Benchmarks

Run by hand with \`npm run bench\` (all) or \`npm run bench -- <name>\` (\`${BENCHMARKS.join('`, `')}\`); each writes
\`bench/<name>.md\` and this file is assembled from them. Every section says how it was run, on what
machine, and the numbers it got. Targets come from the issues; where a target is missed, the section
says so and why.
`;
await writeFile(new URL('../BENCHMARKS.md', import.meta.url), `${header}\n${sections.join('\n\n')}\n`);
console.error('BENCHMARKS.md written');
