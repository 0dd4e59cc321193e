import assert from 'node:assert/strict';
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, it } from 'node:test';
import { fileURLToPath } from 'node:url';

/** What makes V8 read ICU's data, which then stays resident (README, "Capacity and memory"). */
const ICU_USES = [/\bIntl\./, /\.localeCompare\(/, /\.toLocale\w*String\(/, /\\[pP]\{/];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith('.ts'))
    .map((entry) => join(entry.parentPath, entry.name));
}

describe('the app does without ICU', () => {
  it('uses no Intl, localeCompare, toLocale…String or \\p{…} in src/', async () => {
    const src = fileURLToPath(new URL('../src', import.meta.url));
    const found: string[] = [];
    for (const file of await sourceFiles(src)) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      lines.forEach((line, index) => {
        // Comments may name what they avoid.
        const code = line.replace(/\/\*.*?(\*\/|$)|\/\/.*$|^\s*\*.*$/g, '');
        if (ICU_USES.some((use) => use.test(code))) found.push(`${file}:${index + 1}: ${line.trim()}`);
      });
    }
    assert.deepEqual(found, [], 'use compareText (src/compare-text.ts) and formatNumber instead');
  });
});
