// Services as deployed, one Node process each (their src/main.ts, configured by environment, as
// `npm start -w <service>` runs dist/main.js), for benchmarks that must not share one event loop.
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';

export interface ServiceProcess {
  name: string;
  url: string;
  pid: number;
  /** SIGTERM, then waits for the exit (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

/** Node with the workspace packages' source condition and tsx, as `npm run bench` runs scripts. */
export const NODE_SOURCE_ARGS = ['--conditions=ledgerline-source', '--import', 'tsx'];

async function ready(url: string, child: ChildProcess, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`exited with ${child.exitCode} before answering ${url}`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(1_000) }).then(
      (r) => r.status < 500,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms`);
}

/**
 * Starts `entry` (a service's src/main.ts) in its own process with `env` on top of this one's, its
 * output appended to `<logDir>/<name>.log`, and resolves once `healthUrl` answers.
 */
export async function startServiceProcess(options: {
  name: string;
  entry: string;
  env: Record<string, string>;
  url: string;
  healthPath?: string;
  logDir: string;
  timeoutMs?: number;
}): Promise<ServiceProcess> {
  mkdirSync(options.logDir, { recursive: true });
  const log = createWriteStream(join(options.logDir, `${options.name}.log`), { flags: 'a' });
  const child = spawn(process.execPath, [...NODE_SOURCE_ARGS, options.entry], { env: { ...process.env, ...options.env }, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  try {
    await ready(`${options.url}${options.healthPath ?? '/healthz'}`, child, options.timeoutMs ?? 60_000);
  } catch (err) {
    child.kill('SIGKILL');
    throw new Error(`${options.name}: ${(err as Error).message} (see ${join(options.logDir, `${options.name}.log`)})`);
  }
  return {
    name: options.name,
    url: options.url,
    pid: child.pid ?? 0,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Runs a script to its end in its own process; resolves with its stdout (stderr goes to `onLine`). */
export function runScriptProcess(entry: string, args: string[], onLine: (line: string) => void, env: Record<string, string> = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [...NODE_SOURCE_ARGS, entry, ...args], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout?.on('data', (b: Buffer) => (out += b.toString()));
    let pending = '';
    child.stderr?.on('data', (b: Buffer) => {
      pending += b.toString();
      const lines = pending.split('\n');
      pending = lines.pop() ?? '';
      for (const l of lines) onLine(l);
    });
    child.once('error', reject);
    child.once('exit', (code) => (code === 0 ? resolve(out) : reject(new Error(`${entry} exited with ${code}${pending ? `: ${pending}` : ''}`))));
  });
}
