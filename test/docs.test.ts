import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { commandsDoc } from '../scripts/commands-doc.js';

describe('docs', () => {
  it('docs/commands.md is what the command table generates (npx tsx scripts/commands-doc.ts > docs/commands.md)', async () => {
    const onDisk = await readFile(new URL('../docs/commands.md', import.meta.url), 'utf8');
    assert.equal(onDisk, commandsDoc());
  });
});
