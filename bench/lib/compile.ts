import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Compiles a benchmark's app entry and all of src/ (which holds files loaded by path, such as the
 * HTTP front's worker) to JavaScript, so the app runs as `npm start` runs it, without tsx's
 * on-the-fly compiler in the measured process. Returns the path
 * of the compiled entry. Output goes to node_modules/.cache/ci-slack-bench/<entry name>/.
 */
export function compileEntry(source: URL): string {
  const root = fileURLToPath(new URL('../..', import.meta.url));
  const file = fileURLToPath(source);
  const outDir = join(root, 'node_modules', '.cache', 'ci-slack-bench', basename(file, '.ts'));
  rmSync(outDir, { recursive: true, force: true });
  mkdirSync(outDir, { recursive: true });
  const project = join(outDir, 'tsconfig.json');
  const compilerOptions = { noEmit: false, outDir, rootDir: root, sourceMap: false };
  writeFileSync(
    project,
    JSON.stringify({
      extends: join(root, 'tsconfig.json'),
      compilerOptions,
      files: [file],
      include: [join(root, 'src')],
    }),
  );
  execFileSync(process.execPath, [join(root, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', project], {
    stdio: 'inherit',
  });
  return join(outDir, relative(root, file).replace(/\.ts$/, '.js'));
}
