import { spawn } from 'node:child_process';

/** Runs a command with inherited output; rejects with its exit code. */
export function run(cmd: string, args: string[], opts: { cwd?: string; env?: NodeJS.ProcessEnv } = {}): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { stdio: 'inherit', cwd: opts.cwd, env: { ...process.env, ...opts.env } });
    child.on('error', reject);
    child.on('exit', (code, signal) => (code === 0 ? resolve() : reject(new Error(`${cmd} ${args.join(' ')} exited with ${code ?? signal}`))));
  });
}

export function timed<T>(label: string, fn: () => Promise<T>): Promise<T> {
  const started = Date.now();
  console.log(`\n▶ ${label}`);
  return fn().finally(() => console.log(`◀ ${label} (${((Date.now() - started) / 1000).toFixed(1)} s)`));
}
