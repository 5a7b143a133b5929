// A service (or the gateway) run from its built `dist/` as its own Node process, the way its image runs it
// (`node --import @ledgerline/platform/instrumentation dist/main.js`), configured only by environment variables.
// The `dist` test layer runs the whole stack this way, so what ships is what is tested.
import { spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));

export interface ServiceProcess {
  readonly pid: number;
  /** SIGTERM, as Kubernetes stops a pod; SIGKILL if it has not exited after 10 s. */
  stop(): Promise<void>;
  /** SIGKILL at once (a crash). */
  kill(): Promise<void>;
  /** The process's last lines of output (it logs JSON; errors before the logger exists are plain text). */
  output(): string;
}

/** The variables a service process inherits from ours: nothing of this test process's own Node settings. */
const INHERITED = ['PATH', 'HOME', 'LANG', 'TZ', 'TMPDIR', 'NODE_EXTRA_CA_CERTS'];

export async function startServiceProcess({
  name,
  dir,
  env,
  port,
  readyTimeoutMs = 120_000,
}: {
  name: string;
  dir: string;
  env: Record<string, string>;
  port: number;
  readyTimeoutMs?: number;
}): Promise<ServiceProcess> {
  const cwd = join(ROOT, dir);
  const main = join(cwd, 'dist', 'main.js');
  if (!existsSync(main)) throw new Error(`${name}: ${dir}/dist/main.js is missing; build the services first (npm run build:services)`);
  const inherited = Object.fromEntries(INHERITED.filter((k) => process.env[k] !== undefined).map((k) => [k, process.env[k]!]));
  const child = spawn(process.execPath, ['--import', '@ledgerline/platform/instrumentation', main], {
    cwd,
    env: { ...inherited, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: string[] = [];
  const keep = (chunk: Buffer) => {
    lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (lines.length > 200) lines.splice(0, lines.length - 200);
  };
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  let gone = false;
  void exited.then(() => (gone = true));

  const halt = async (signal: NodeJS.Signals) => {
    if (gone) return;
    child.kill(signal);
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
  };
  const handle: ServiceProcess = { pid: child.pid ?? -1, stop: () => halt('SIGTERM'), kill: () => halt('SIGKILL'), output: () => lines.join('\n') };

  const deadline = Date.now() + readyTimeoutMs;
  for (;;) {
    if (gone) throw new Error(`${name} exited before it was ready (code ${await exited}):\n${handle.output()}`);
    const ready = await fetch(`http://127.0.0.1:${port}/readyz`, { signal: AbortSignal.timeout(2_000) }).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return handle;
    if (Date.now() > deadline) {
      await handle.kill();
      throw new Error(`${name} was not ready on port ${port} within ${readyTimeoutMs} ms:\n${handle.output()}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}
