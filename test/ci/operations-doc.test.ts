import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { describe, it } from 'node:test';
import * as ci from '../../src/ci/index.js';

const ROOT = new URL('../../', import.meta.url);
const DOC = readFileSync(new URL('docs/ci-operations.md', ROOT), 'utf8');

/** Exported functions that are not operations of the API. */
const NOT_OPERATIONS = new Set(['CiClient', 'CiSession', 'CiError', 'isCiError', 'isFinished']);

interface Row {
  section: string;
  fn: string;
  test: string;
}

function operationRows(): Row[] {
  return DOC.split('\n')
    .filter((line) => /^\| (4\.\d+|notes) \|/.test(line))
    .map((line) => {
      const cells = line.split('|').map((cell) => cell.trim());
      const code = (cell: string | undefined) => /^`([^`]+)`$/.exec(cell ?? '')?.[1] ?? '';
      return { section: cells[1] ?? '', fn: code(cells[4]), test: code(cells[5]) };
    });
}

describe('docs/ci-operations.md', () => {
  const rows = operationRows();
  const exported = ci as unknown as Record<string, unknown>;

  it('lists every section from 4.1 to 4.20', () => {
    const sections = new Set(rows.map((row) => row.section));
    for (let n = 1; n <= 20; n += 1) assert.ok(sections.has(`4.${n}`), `4.${n} is missing`);
  });

  it('names functions exported by src/ci/index.ts and test files that call them', () => {
    for (const { fn, test } of rows) {
      assert.equal(typeof exported[fn], 'function', `${fn} is not exported`);
      const source = readFileSync(new URL(test, ROOT), 'utf8');
      assert.match(source, new RegExp(`\\b${fn}\\(`), `${test} does not call ${fn}`);
    }
  });

  it('leaves out no exported operation', () => {
    const documented = new Set(rows.map((row) => row.fn));
    const operations = Object.entries(exported)
      .filter(([name, value]) => typeof value === 'function' && !NOT_OPERATIONS.has(name))
      .map(([name]) => name);
    assert.ok(operations.length > 50);
    assert.deepEqual(
      operations.filter((name) => !documented.has(name)),
      [],
    );
  });
});
