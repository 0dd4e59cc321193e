// Runs every test/**/*.test.ts file (or the files given) with Node's test runner through tsx.
// Node 20's --test does not expand globs, so the file list is built here.
import { spawn } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';

function findTests(dir) {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return findTests(path);
    return name.endsWith('.test.ts') ? [path] : [];
  });
}

const args = process.argv.slice(2);
const files = args.length > 0 ? args : findTests('test').sort();
const concurrency = process.env.TEST_CONCURRENCY ?? '4';
const child = spawn(
  process.execPath,
  ['--import', 'tsx', '--test', `--test-concurrency=${concurrency}`, '--test-reporter=spec', ...files],
  { stdio: 'inherit', env: { ...process.env, NODE_ENV: 'test' } },
);
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
