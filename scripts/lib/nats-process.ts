// A NATS server with JetStream of its own, as a separate process on a free port with its own store directory:
// the chaos test kills it (kill -9) and starts it again on the same port and store, as a crashed pod restarts
// on its volume. The other tests share the machine's NATS server (docs/architecture.md, "Tests").
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/** Debian's nats-server (installed by .ci/run), or NATS_SERVER_BIN. */
const BINARIES = [process.env.NATS_SERVER_BIN, '/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].filter((b): b is string => !!b);

export interface NatsProcess {
  readonly url: string;
  /** SIGKILL (a crash): the store keeps what JetStream had written. */
  kill(): Promise<void>;
  /** Starts it again on the same port and store. */
  start(): Promise<void>;
  /** Stops it and removes its store. */
  close(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

const accepts = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });

export async function startNatsProcess(): Promise<NatsProcess> {
  const bin = BINARIES.find((b) => existsSync(b));
  if (!bin) throw new Error(`no nats-server (looked at ${BINARIES.join(', ')}); .ci/run installs Debian's nats-server`);
  const port = await freePort();
  const store = mkdtempSync(join(tmpdir(), 'll-nats-'));
  let child: ChildProcess | null = null;
  let exited: Promise<void> = Promise.resolve();
  const lines: string[] = [];

  const start = async () => {
    if (child) return;
    const c = spawn(bin, ['-a', '127.0.0.1', '-p', String(port), '-js', '-sd', store], { stdio: ['ignore', 'pipe', 'pipe'] });
    const keep = (chunk: Buffer) => {
      lines.push(...chunk.toString('utf8').split('\n').filter(Boolean));
      if (lines.length > 100) lines.splice(0, lines.length - 100);
    };
    c.stdout?.on('data', keep);
    c.stderr?.on('data', keep);
    child = c;
    exited = new Promise((resolve) => c.once('exit', () => resolve()));
    void exited.then(() => {
      if (child === c) child = null;
    });
    const deadline = Date.now() + 20_000;
    while (!(await accepts(port))) {
      if (!child) throw new Error(`nats-server exited before it listened:\n${lines.join('\n')}`);
      if (Date.now() > deadline) throw new Error(`nats-server did not listen on ${port} within 20 s:\n${lines.join('\n')}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  };
  const halt = async (signal: NodeJS.Signals) => {
    const c = child;
    if (!c) return;
    c.kill(signal);
    await exited;
  };
  await start();
  return {
    url: `nats://127.0.0.1:${port}`,
    kill: () => halt('SIGKILL'),
    start,
    async close() {
      await halt('SIGTERM');
      rmSync(store, { recursive: true, force: true });
    },
  };
}
