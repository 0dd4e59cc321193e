import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import { describe, it } from 'node:test';
import { commandsDoc } from '../scripts/commands-doc.js';
import { ENV_VARIABLES } from '../src/config.js';

const readDoc = (path: string) => readFile(new URL(`../${path}`, import.meta.url), 'utf8');

describe('docs', () => {
  it('docs/commands.md is what the command table generates (npx tsx scripts/commands-doc.ts > docs/commands.md)', async () => {
    const onDisk = await readFile(new URL('../docs/commands.md', import.meta.url), 'utf8');
    assert.equal(onDisk, commandsDoc());
  });

  it('the Docker image runs the app with the same node flags as npm start', async () => {
    const [pkg, dockerfile] = await Promise.all([readDoc('package.json'), readDoc('Dockerfile')]);
    const start = (JSON.parse(pkg) as { scripts: { start: string } }).scripts.start.split(/\s+/);
    const cmd = dockerfile.match(/^CMD (\[.*\])$/m)?.[1];
    assert.ok(cmd, 'the Dockerfile has an exec-form CMD');
    assert.deepEqual(JSON.parse(cmd), start);
  });

  it('.env.example and the README name every environment variable the app reads', async () => {
    const [example, readme] = await Promise.all([readDoc('.env.example'), readDoc('README.md')]);
    assert.ok(ENV_VARIABLES.length > 20, 'the contract was read');
    for (const name of ENV_VARIABLES) {
      assert.match(example, new RegExp(`^#? ?${name}=`, 'm'), `.env.example lacks ${name}`);
      assert.ok(readme.includes(`\`${name}\``), `README.md lacks ${name}`);
    }
  });
});
