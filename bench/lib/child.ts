import { type ChildProcess, spawn } from 'node:child_process';
import { createInterface } from 'node:readline';

/**
 * Starts `node <file>` (through tsx for a .ts file) and waits for the JSON line it prints when
 * ready (`{"ready": …}`), so benchmarks can run apps in their own processes.
 */
export async function startChild<T>(
  file: string,
  env: Record<string, string>,
  execArgv: string[] = [],
): Promise<{ child: ChildProcess; ready: T }> {
  const loader = file.endsWith('.ts') ? ['--import', 'tsx'] : [];
  const child = spawn(process.execPath, [...execArgv, ...loader, file], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  // A benchmark that dies must not leave its apps running.
  process.once('exit', () => child.kill('SIGKILL'));
  const lines = createInterface({ input: child.stdout as NodeJS.ReadableStream });
  const ready = await new Promise<T>((resolve, reject) => {
    child.once('exit', (code) => reject(new Error(`${file} exited early with ${code}`)));
    lines.on('line', (line) => {
      try {
        const message = JSON.parse(line) as { ready?: T };
        if (message.ready !== undefined) resolve(message.ready);
      } catch {
        // not our line
      }
    });
  });
  return { child, ready };
}

export async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  await exited;
}
